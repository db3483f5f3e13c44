import { CompiledQuery } from "kysely";
import type { AuditOutcome, AuditTrailEntry } from "../../contract/audit.js";
import { auditEntryBody, auditEntryHash, chainHash } from "../crypto/audit-hash.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { directWriterIn } from "./direct-writes.js";
import { toDate } from "./values.js";

/** An entry before the chain numbers and hashes it. */
export type NewAuditEntry = Omit<AuditTrailEntry, "seq" | "hash" | "details"> & { details: string | null };

type HeadRow = { headSeq: number | string; headHash: string };

/**
 * The chain's head row, locked until the transaction ends on PostgreSQL (FOR UPDATE), for pruning:
 * appenders wait behind it. SQLite has one writer at a time.
 */
async function lockHead(trx: DB, dialect: DialectName): Promise<void> {
  let query = trx.selectFrom("auditChain").select("id").where("id", "=", 1);
  if (dialect === "postgres") query = query.forUpdate();
  await query.executeTakeFirstOrThrow();
}

/** An entry's own columns, in the order they are written (the chain adds `seq` before and `hash` after). */
export const AUDIT_ENTRY_COLUMNS = [
  "id",
  "createdAt",
  "action",
  "outcome",
  "actorType",
  "actorId",
  "subjectId",
  "organizationId",
  "ipAddress",
  "userAgent",
  "requestId",
  "details",
] as const;
const columnList = AUDIT_ENTRY_COLUMNS.map((column) => `"${column}"`).join(", ");

/**
 * PostgreSQL: moving the head locks its row until the transaction ends (a second appender waits
 * there, then sees the moved head), and the hash is finished from the head it moved from:
 * `[seq,<body>,"<previous hash>"]`, the body built in Node (crypto/audit-hash.ts). Written with
 * `param(n)` for the entry's n-th column value (1-12) and `param(13)` for its body; `condition`
 * narrows the head's move (a merged change's rows must exist).
 */
function postgresHeadMove(param: (n: number) => string, condition = ""): string {
  return `update "auditChain" set "headSeq" = "headSeq" + 1,
    "headHash" = encode(sha256(convert_to('[' || ("headSeq" + 1)::text || ',' || ${param(13)}::text || ',' || to_json("headHash")::text || ']', 'UTF8')), 'hex')
  where "id" = 1${condition}
  returning "headSeq", "headHash"`;
}

/** The entry's insert, numbered and hashed by the moved head (`postgresHeadMove`, named "head"). */
function postgresEntryInsert(param: (n: number) => string): string {
  const values = AUDIT_ENTRY_COLUMNS.map(
    (column, i) => `${param(i + 1)}::${column === "createdAt" ? "timestamptz" : "text"}`,
  );
  return `insert into "auditTrail" ("seq", ${columnList}, "hash")
select "headSeq", ${values.join(", ")}, "headHash" from "head"`;
}

const dollar = (n: number) => `$${n}`;

/** PostgreSQL's append inside a transaction: one statement. */
const POSTGRES_APPEND = `with "head" as (${postgresHeadMove(dollar)})
${postgresEntryInsert(dollar)}
returning "seq", "hash"`;

/**
 * PostgreSQL's append merged into a change of one statement that returns its rows (a change node
 * marked by `withEntry`): the change runs as the first part of one statement, the head moves and the
 * entry is inserted only if it returned a row, and the statement answers the change's rows. One
 * statement commits as one, so the entry still commits with its change, without a transaction's two
 * round trips (bench/README.md, "Audited writes in one statement"). The text around the change is
 * written once per number of the change's own parameters, which the entry's are numbered after.
 */
const ENTRY = Symbol("audit entry carried by this statement");
const mergedTexts = new Map<number, string>();

function mergedText(changeParameters: number): string {
  let text = mergedTexts.get(changeParameters);
  if (!text) {
    const param = (n: number) => `$${changeParameters + n}`;
    text = `, "head" as (${postgresHeadMove(param, ` and exists (select 1 from "changed")`)}),
"entry" as (${postgresEntryInsert(param)})
select * from "changed"`;
    mergedTexts.set(changeParameters, text);
  }
  return text;
}

/** The change's node, marked to carry `entry` (see mergeEntry); the same kind of node, as Kysely's plugins must answer. */
export function withEntry<N extends object>(node: N, entry: NewAuditEntry): N {
  return { ...node, [ENTRY]: entry };
}

/** The statement to run for `query`: itself, or, when its node carries an entry, the change and the entry in one. */
export function mergeEntry(query: CompiledQuery): CompiledQuery {
  const entry = (query.query as { [ENTRY]?: NewAuditEntry })[ENTRY];
  if (!entry) return query;
  const { values, body } = entryValues(entry);
  return {
    ...query,
    sql: `with "changed" as (${query.sql})${mergedText(query.parameters.length)}`,
    parameters: [...query.parameters, ...values, body],
  };
}

/**
 * The entry's column values in AUDIT_ENTRY_COLUMNS order and its canonical body, with `createdAt`
 * formatted once for both (PostgreSQL casts the text to timestamptz).
 */
function entryValues(entry: NewAuditEntry): { values: unknown[]; body: string } {
  const createdAt = entry.createdAt.toISOString();
  const values: unknown[] = AUDIT_ENTRY_COLUMNS.map((column) => entry[column]);
  values[1] = createdAt;
  return { values, body: auditEntryBody(entry, createdAt) };
}

/** SQLite has one writer at a time: the head is read, the entry hashed in Node, both written. */
const SQLITE_HEAD = `select "headSeq", "headHash" from "auditChain" where "id" = 1`;
const SQLITE_INSERT = `insert into "auditTrail" ("seq", ${columnList}, "hash") values (${Array(
  AUDIT_ENTRY_COLUMNS.length + 2,
)
  .fill("?")
  .join(", ")})`;
const SQLITE_MOVE_HEAD = `update "auditChain" set "headSeq" = ?, "headHash" = ? where "id" = 1`;

/**
 * Appends one entry at the chain's head: numbered one past it and hashed over the head's hash. Call
 * inside a transaction (the change's own, or one of its own for a failure). The statements are
 * written out once here rather than built per append: an append is on every audited write's path.
 * `db` is the database `trx` is a transaction on: on SQLite the statements then run straight on its
 * connection (store/direct-writes.ts), in `trx` all the same.
 */
export async function appendAuditEntry(
  trx: DB,
  dialect: DialectName,
  entry: NewAuditEntry,
  db?: DB,
): Promise<{ seq: number; hash: string }> {
  const { values, body } = entryValues(entry);
  if (dialect === "postgres") {
    const { rows } = await trx.executeQuery<{ seq: number | string; hash: string }>(
      CompiledQuery.raw(POSTGRES_APPEND, [...values, body]),
    );
    const appended = rows[0];
    if (!appended) throw new Error("the audit chain has no head row");
    return { seq: Number(appended.seq), hash: appended.hash };
  }
  const direct = db ? directWriterIn(db, trx) : undefined;
  const head = direct
    ? (direct.get(SQLITE_HEAD, []) as HeadRow | undefined)
    : (await trx.executeQuery<HeadRow>(CompiledQuery.raw(SQLITE_HEAD, []))).rows[0];
  if (!head) throw new Error("the audit chain has no head row");
  const seq = Number(head.headSeq) + 1;
  const hash = chainHash(seq, body, head.headHash);
  const row = [seq, ...values, hash];
  if (direct) {
    direct.run(SQLITE_INSERT, row);
    direct.run(SQLITE_MOVE_HEAD, [seq, hash]);
  } else {
    await trx.executeQuery(CompiledQuery.raw(SQLITE_INSERT, row));
    await trx.executeQuery(CompiledQuery.raw(SQLITE_MOVE_HEAD, [seq, hash]));
  }
  return { seq, hash };
}

/** The entry as the trail holds it, once appended at `seq` with `hash`. */
export function appendedEntry(entry: NewAuditEntry, chained: { seq: number; hash: string }): AuditTrailEntry {
  return mapEntry({ ...entry, ...chained });
}

export interface AuditTrailFilter {
  organizationId?: string;
  actorId?: string;
  subjectId?: string;
  action?: string;
  outcome?: AuditOutcome;
  /** Entries of every outcome but this one. */
  outcomeNot?: AuditOutcome;
  from?: Date;
  to?: Date;
  /** Only entries older than this sequence number (the cursor). */
  beforeSeq?: number;
  limit: number;
}

type TrailRow = {
  seq: number | string;
  createdAt: Date | string;
  details: string | null;
} & Omit<AuditTrailEntry, "seq" | "createdAt" | "details" | "action" | "outcome" | "actorType"> & {
    action: string;
    outcome: string;
    actorType: string;
  };

function mapEntry(row: TrailRow): AuditTrailEntry {
  return {
    ...row,
    seq: Number(row.seq),
    createdAt: toDate(row.createdAt),
    details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
  } as AuditTrailEntry;
}

/** Newest first, filtered; `limit` rows at most. */
export async function listAuditTrail(db: DB, filter: AuditTrailFilter): Promise<AuditTrailEntry[]> {
  let query = db.selectFrom("auditTrail").selectAll();
  if (filter.organizationId !== undefined) query = query.where("organizationId", "=", filter.organizationId);
  if (filter.actorId !== undefined) query = query.where("actorId", "=", filter.actorId);
  if (filter.subjectId !== undefined) query = query.where("subjectId", "=", filter.subjectId);
  if (filter.action !== undefined) query = query.where("action", "=", filter.action);
  if (filter.outcome !== undefined) query = query.where("outcome", "=", filter.outcome);
  if (filter.outcomeNot !== undefined) query = query.where("outcome", "!=", filter.outcomeNot);
  if (filter.from !== undefined) query = query.where("createdAt", ">=", filter.from);
  if (filter.to !== undefined) query = query.where("createdAt", "<", filter.to);
  if (filter.beforeSeq !== undefined) query = query.where("seq", "<", filter.beforeSeq);
  const rows = await query.orderBy("seq", "desc").limit(filter.limit).execute();
  return rows.map(mapEntry);
}

/** Where a check of the chain found it broken: the first entry that does not hold, and why. */
export interface ChainBreak {
  seq: number;
  id: string | null;
  reason: "edited" | "missing" | "head-mismatch";
}

export interface ChainCheck {
  ok: boolean;
  checked: number;
  anchorSeq: number;
  headSeq: number;
  headHash: string;
  firstBad: ChainBreak | null;
}

const VERIFY_PAGE = 1000;

/**
 * Walks the chain from its anchor to its head, recomputing every hash. A changed entry no longer
 * hashes to what it holds (or what the next one was chained to); a removed one leaves a gap in the
 * numbers, or, at either end, an anchor or head that no row meets.
 */
export async function verifyAuditChain(db: DB): Promise<ChainCheck> {
  const head = await db
    .selectFrom("auditChain")
    .select(["headSeq", "headHash", "anchorSeq", "anchorHash"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  const headSeq = Number(head.headSeq);
  const anchorSeq = Number(head.anchorSeq);
  const result = (firstBad: ChainBreak | null, checked: number): ChainCheck => ({
    ok: firstBad === null,
    checked,
    anchorSeq,
    headSeq,
    headHash: head.headHash,
    firstBad,
  });
  let expectedSeq = anchorSeq + 1;
  let previousHash = head.anchorHash;
  let checked = 0;
  for (;;) {
    const rows = await db
      .selectFrom("auditTrail")
      .selectAll()
      .where("seq", ">=", expectedSeq)
      .where("seq", "<=", headSeq)
      .orderBy("seq")
      .limit(VERIFY_PAGE)
      .execute();
    for (const raw of rows) {
      const seq = Number(raw.seq);
      if (seq !== expectedSeq) return result({ seq: expectedSeq, id: null, reason: "missing" }, checked);
      const fields = { ...raw, seq, createdAt: toDate(raw.createdAt) };
      if (auditEntryHash(fields, previousHash) !== raw.hash) {
        return result({ seq, id: raw.id, reason: "edited" }, checked);
      }
      previousHash = raw.hash;
      expectedSeq = seq + 1;
      checked++;
    }
    if (rows.length < VERIFY_PAGE) break;
  }
  if (expectedSeq <= headSeq) return result({ seq: expectedSeq, id: null, reason: "missing" }, checked);
  if (previousHash !== head.headHash) return result({ seq: headSeq, id: null, reason: "head-mismatch" }, checked);
  return result(null, checked);
}

/**
 * Drops the entries older than `before` from the chain's start, in one transaction with the head
 * locked: the anchor moves to the last one dropped (its number and hash), so the first entry kept
 * still chains to something the check knows. Returns how many went and the new anchor.
 */
export async function pruneAuditTrail(
  trx: DB,
  dialect: DialectName,
  before: Date,
): Promise<{ pruned: number; anchorSeq: number } | null> {
  await lockHead(trx, dialect);
  const last = await trx
    .selectFrom("auditTrail")
    .select(["seq", "hash"])
    .where("createdAt", "<", before)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!last) return null;
  const anchorSeq = Number(last.seq);
  const deleted = await trx.deleteFrom("auditTrail").where("seq", "<=", anchorSeq).executeTakeFirst();
  await trx.updateTable("auditChain").set({ anchorSeq, anchorHash: last.hash }).where("id", "=", 1).execute();
  return { pruned: Number(deleted.numDeletedRows), anchorSeq };
}
