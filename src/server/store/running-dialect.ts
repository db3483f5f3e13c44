import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from "kysely";

/** Runs one compiled statement on a connection Kysely holds for it. */
export type StatementRunner = <R>(connection: DatabaseConnection, query: CompiledQuery) => Promise<QueryResult<R>>;

/**
 * A dialect whose connections run each statement through `run`, so a change whose node carries an
 * audit entry is written with it as one (audit/entry.store.ts): on PostgreSQL one merged statement,
 * on SQLite the change and the entry's insert in one transaction on the held connection. A plugin
 * cannot do either itself: Kysely wants a plugin's node of the kind it was given, and the merged
 * statement is a select over the change.
 */
export function runningDialect(dialect: Dialect, run: StatementRunner): Dialect {
  return {
    createDriver: () => new RunningDriver(dialect.createDriver(), run),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

class RunningDriver implements Driver {
  readonly #inner: Driver;
  readonly #run: StatementRunner;
  /** One view per pooled connection (the driver keeps one connection object per client). */
  readonly #views = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #connections = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver, run: StatementRunner) {
    this.#inner = inner;
    this.#run = run;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    let view = this.#views.get(connection);
    if (!view) {
      view = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => this.#run<R>(connection, query),
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
      };
      this.#views.set(connection, view);
      this.#connections.set(view, connection);
    }
    return view;
  }

  // The view, not the connection: its statements (BEGIN, COMMIT) then pass Kysely's logging, which
  // counts round trips, as every other statement does.
  beginTransaction(view: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(view, settings);
  }

  commitTransaction(view: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(view);
  }

  rollbackTransaction(view: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(view);
  }

  /** The driver releases the connection it handed out (pg's client), not the view. */
  releaseConnection(view: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(this.#connections.get(view) ?? view);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}
