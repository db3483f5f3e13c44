import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from "kysely";

/**
 * A dialect whose connections run each statement as `rewrite` makes it: PostgreSQL's, so a change
 * whose node carries an audit entry runs with it as one statement (audit/entry.store.ts, mergeEntry).
 * A plugin cannot do that itself: Kysely wants a plugin's node of the kind it was given, and the
 * merged statement is a select over the change.
 */
export function rewritingDialect(dialect: Dialect, rewrite: (query: CompiledQuery) => CompiledQuery): Dialect {
  return {
    createDriver: () => new RewritingDriver(dialect.createDriver(), rewrite),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

class RewritingDriver implements Driver {
  readonly #inner: Driver;
  readonly #rewrite: (query: CompiledQuery) => CompiledQuery;
  /** One view per pooled connection (the driver keeps one connection object per client). */
  readonly #views = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #connections = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver, rewrite: (query: CompiledQuery) => CompiledQuery) {
    this.#inner = inner;
    this.#rewrite = rewrite;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    let view = this.#views.get(connection);
    if (!view) {
      view = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          connection.executeQuery<R>(this.#rewrite(query)),
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
