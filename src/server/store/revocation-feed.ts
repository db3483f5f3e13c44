/**
 * How a revocation made on one instance reaches the others. `publish` sends a user id to every
 * instance (this one included or not: the list applies it locally first). `start` begins listening;
 * the feed reports `connected(false)` whenever it may be missing messages, so the list can fail closed.
 * Declared in a file of its own, so the package's declarations never name ioredis or pg (optional peers).
 */
export interface RevocationFeed {
  publish(userId: string): Promise<void>;
  start(handlers: { revoked(userId: string): void; connected(isConnected: boolean): void }): void;
  close(): Promise<void>;
}
