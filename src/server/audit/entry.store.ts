import { CompiledQuery } from "kysely";
import { z } from "zod";
import { AUDIT_ENTRY_COLUMNS, AUDIT_ENTRY_FIELDS } from "../../contract/audit.js";
import type { DB } from "../store/db.js";
import type { DialectName } from "../store/dialect.js";
import { directWriterIn } from "../store/direct-writes.js";
import type { StoredAuditFields } from "./hash.js";

/** An entry as a change writes it (its fields as stored): the sealer numbers and hashes it later. */
export type NewAuditEntry = StoredAuditFields;

export { AUDIT_ENTRY_COLUMNS };

const columnList = AUDIT_ENTRY_COLUMNS.map((column) => `"${column}"`).join(", ");

/** The entry's column values in AUDIT_ENTRY_COLUMNS order, a time as ISO text (SQLite's direct writer binds no Date). */
function entryValues(entry: NewAuditEntry): unknown[] {
  return AUDIT_ENTRY_COLUMNS.map((column) => {
    const value = entry[column];
    return value instanceof Date ? value.toISOString() : value;
  });
}

const isTime = (field: z.ZodType): boolean =>
  field instanceof z.ZodDate || (field instanceof z.ZodNullable && isTime(field.unwrap() as z.ZodType));

/** PostgreSQL takes the values of a `select` as text unless told: each cast for its field's column. */
const POSTGRES_CASTS = AUDIT_ENTRY_COLUMNS.map((column) =>
  isTime(AUDIT_ENTRY_FIELDS[column]) ? "timestamptz" : "text",
);
function postgresValues(param: (n: number) => string): string {
  return POSTGRES_CASTS.map((cast, i) => `${param(i + 1)}::${cast}`).join(", ");
}

const ENTRY_INSERT = (placeholders: string) => `insert into "auditTrail" (${columnList}) values (${placeholders})`;
const POSTGRES_INSERT = ENTRY_INSERT(AUDIT_ENTRY_COLUMNS.map((_, i) => `$${i + 1}`).join(", "));
const SQLITE_INSERT = ENTRY_INSERT(AUDIT_ENTRY_COLUMNS.map(() => "?").join(", "));

/** Where an entry goes: see writeAuditEntry. */
export type EntryPlace<N> =
  /** Inside the change's transaction `trx`; `db`, the database it is a transaction on. */
  | { transaction: DB; dialect: DialectName; db?: DB }
  /** Carried by the change's own statement, its query node `statement` (see mergeEntry, entryCarriedBy). */
  | { statement: N };

/**
 * The one writer of audit entries: every entry, from every request, server call, directory or
 * system event, is inserted here, unsealed (no `seq`, no `hash`; the sealer numbers and chains it
 * once committed). No head is read or locked: audited writes do not wait on each other. Two places:
 *  - `{ transaction }`: in the change's transaction, so it commits or rolls back with it; on SQLite
 *    straight on the connection when `db` is given (store/direct-writes.ts), in the transaction all
 *    the same;
 *  - `{ statement }`: the change's query node, marked to carry the entry, returned (a Kysely plugin
 *    answers the same kind of node); the statement then inserts it only if it changed a row.
 */
export function writeAuditEntry(entry: NewAuditEntry, place: EntryPlace<never> & { transaction: DB }): Promise<void>;
export function writeAuditEntry<N extends object>(entry: NewAuditEntry, place: { statement: N }): N;
export function writeAuditEntry<N extends object>(entry: NewAuditEntry, place: EntryPlace<N>): Promise<void> | N {
  if ("statement" in place) return { ...place.statement, [ENTRY]: entry };
  return insertEntry(place.transaction, place.dialect, entry, place.db);
}

async function insertEntry(trx: DB, dialect: DialectName, entry: NewAuditEntry, db?: DB): Promise<void> {
  const values = entryValues(entry);
  if (dialect === "postgres") {
    await trx.executeQuery(CompiledQuery.raw(POSTGRES_INSERT, values));
    return;
  }
  const direct = db ? directWriterIn(db, trx) : undefined;
  if (direct) direct.run(SQLITE_INSERT, values);
  else await trx.executeQuery(CompiledQuery.raw(SQLITE_INSERT, values));
}

const ENTRY = Symbol("audit entry carried by this statement");
const carried = (query: CompiledQuery) => (query.query as { [ENTRY]?: NewAuditEntry })[ENTRY];

/**
 * PostgreSQL's entry merged into a change of one statement that returns its rows (a change node
 * marked by writeAuditEntry's `{ statement }`): the change runs as the first part of one statement, the entry is inserted
 * only if it returned a row, and the statement answers the change's rows. One statement commits as
 * one, so the entry still commits with its change, without a transaction's two round trips
 * (bench/README.md, "Audited writes in one statement"). The entry's parameters follow the change's.
 */
const mergedTexts = new Map<number, string>();

function mergedText(changeParameters: number): string {
  let text = mergedTexts.get(changeParameters);
  if (!text) {
    const values = postgresValues((n) => `$${changeParameters + n}`);
    text = `, "entry" as (insert into "auditTrail" (${columnList}) select ${values} where exists (select 1 from "changed"))
select * from "changed"`;
    mergedTexts.set(changeParameters, text);
  }
  return text;
}

/** The statement to run for `query`: itself, or, when its node carries an entry, the change and the entry in one. */
export function mergeEntry(query: CompiledQuery): CompiledQuery {
  const entry = carried(query);
  if (!entry) return query;
  return {
    ...query,
    sql: `with "changed" as (${query.sql})${mergedText(query.parameters.length)}`,
    parameters: [...query.parameters, ...entryValues(entry)],
  };
}

/**
 * SQLite's counterpart: the insert of the entry `query`'s node carries, or undefined. SQLite has no
 * change inside a `with`, so its runner (store/database.ts) runs the change and this insert, when the
 * change returned a row, in one synchronous transaction on the connection Kysely holds for the
 * statement, which no other request's read ever finds open (bench/README.md, "SQLite's entry with its change").
 */
export function entryCarriedBy(query: CompiledQuery): CompiledQuery | undefined {
  const entry = carried(query);
  return entry ? CompiledQuery.raw(SQLITE_INSERT, entryValues(entry)) : undefined;
}
