import type { DB } from "../database.js";
import type { ReadOptions } from "./postgres-reads.js";

/** Rows now (SQLite), rows later (PostgreSQL), or undefined: run it through Kysely instead. */
export type DirectReader = (
  sqlText: string,
  parameters: readonly unknown[],
  options?: ReadOptions,
) => unknown[] | Promise<unknown[]> | undefined;

/** One reader per database opened (see readRowsDirect); transaction handles have none. */
const directReaders = new WeakMap<DB, DirectReader>();

/** Called by openDatabase for each database it opens. */
export function registerDirectReader(db: DB, reader: DirectReader): void {
  directReaders.set(db, reader);
}

/**
 * For hot reads whose SQL is compiled once (store/precompiled.ts, get-session's lookup): on SQLite,
 * run the statement straight on the connection, skipping Kysely's async connection hand-off, which
 * cost more than the lookups themselves; on PostgreSQL, as a named prepared statement whose rows
 * come back as JSON (timestamps as text), coalesced with the same statement's other reads of this
 * turn unless `options` says otherwise (see postgresReader). Values are bound as Kysely would bind
 * them (dates as ISO text and booleans as 1/0 on SQLite). Answers
 * undefined when that is not possible (a transaction handle, or a transaction open on the SQLite
 * connection), and the caller runs the query through Kysely. Counted like any other round trip.
 */
export function readRowsDirect(
  db: DB,
  sqlText: string,
  parameters: readonly unknown[],
  options?: ReadOptions,
): unknown[] | Promise<unknown[]> | undefined {
  return directReaders.get(db)?.(sqlText, parameters, options);
}

/** Whether `db` is a database opened here (not a transaction handle), so readRowsDirect may answer. */
export function hasDirectReader(db: DB): boolean {
  return directReaders.has(db);
}
