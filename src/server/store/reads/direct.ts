import type { DB } from "../db.js";
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
 * Runs a compiled hot read past Kysely's connection hand-off: straight on the SQLite connection, or
 * as PostgreSQL's prepared, coalesced statement (postgresReader; rows as JSON, timestamps as text).
 * Undefined inside a transaction: the caller then runs it through Kysely. Counted as a round trip.
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
