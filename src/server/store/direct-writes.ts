import type { DB } from "./db.js";

/**
 * SQLite's one connection, for statements a transaction on it runs past Kysely: better-sqlite3 runs
 * a statement synchronously, so Kysely's connection hand-off, logging wrapper, result plugins and
 * their promises cost more than a point update does (bench/README.md, "Audited writes: trimmed").
 */
export interface DirectWriter {
  /** Whether a transaction is open on the connection (the caller's own, if it holds one on `db`). */
  inTransaction(): boolean;
  /** The first row of a reading statement, or undefined. */
  get(sqlText: string, parameters: readonly unknown[]): unknown;
  /** Runs a writing statement; answers how many rows it changed. */
  run(sqlText: string, parameters: readonly unknown[]): number;
}

/** One writer per SQLite database opened (see directWriterIn); PostgreSQL has none. */
const directWriters = new WeakMap<DB, DirectWriter>();

/** Called by openDatabase for each SQLite database it opens. */
export function registerDirectWriter(db: DB, writer: DirectWriter): void {
  directWriters.set(db, writer);
}

/**
 * The connection of `db` for a caller running inside a transaction `trx` it opened on `db`, or
 * undefined (PostgreSQL, or no transaction open). SQLite has one connection and Kysely hands it to one
 * transaction at a time: while `trx` is open the transaction on it is `trx`'s, so a statement run
 * straight on it is in `trx` as surely as one run through it. Never for a `db` outside a transaction:
 * another request's transaction may hold the connection then.
 */
export function directWriterIn(db: DB, trx: DB): DirectWriter | undefined {
  if (!trx.isTransaction) return undefined;
  const writer = directWriters.get(db);
  return writer?.inTransaction() ? writer : undefined;
}
