import type { Redis } from "ioredis";
import type pgType from "pg";
import type { Logger } from "../logger.js";

/** The one channel every instance listens on; messages are user ids. */
/**
 * How a revocation made on one instance reaches the others. `publish` sends a user id to every
 * instance (this one included or not: the list applies it locally first). `start` begins listening;
 * the feed reports `connected(false)` whenever it may be missing messages, so the list can fail closed.
 */
export interface RevocationFeed {
  publish(userId: string): Promise<void>;
  start(handlers: { revoked(userId: string): void; connected(isConnected: boolean): void }): void;
  close(): Promise<void>;
}

export const REVOCATION_CHANNEL = "gatehouse_session_revocations";

/** How long a lost PostgreSQL listener waits before connecting again. */
const RECONNECT_DELAY_MS = 500;

/**
 * Redis pub/sub. Publishing uses the shared connection; listening needs a connection of its own
 * (a subscribed Redis connection can do nothing else). ioredis reconnects by itself; this feed
 * reports "disconnected" from the moment the subscriber drops until it has subscribed again.
 */
export function redisRevocationFeed(redis: Redis, logger: Logger): RevocationFeed {
  const subscriber = redis.duplicate({ autoResubscribe: false, lazyConnect: true });
  return {
    publish: async (userId) => {
      await redis.publish(REVOCATION_CHANNEL, userId);
    },
    start(handlers) {
      handlers.connected(false);
      subscriber.on("message", (channel: string, userId: string) => {
        if (channel === REVOCATION_CHANNEL) handlers.revoked(userId);
      });
      subscriber.on("close", () => handlers.connected(false));
      subscriber.on("ready", () => {
        subscriber.subscribe(REVOCATION_CHANNEL).then(
          () => handlers.connected(true),
          (error: unknown) => logger.warn("revocation subscribe failed", { error: String(error) }),
        );
      });
      subscriber.on("error", (error: Error) => logger.warn("revocation listener error", { error: error.message }));
      subscriber.connect().catch(() => {
        // ioredis keeps retrying; "ready" reports the connection when it comes.
      });
    },
    close: async () => {
      subscriber.disconnect();
    },
  };
}

/**
 * PostgreSQL LISTEN/NOTIFY, for deployments without Redis: one dedicated client listens, and
 * publishing is a NOTIFY through a short-lived query on the same server.
 */
export function postgresRevocationFeed(
  connectionString: string,
  pg: typeof pgType,
  notify: (channel: string, payload: string) => Promise<void>,
  logger: Logger,
): RevocationFeed {
  let client: pgType.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  return {
    publish: (userId) => notify(REVOCATION_CHANNEL, userId),
    start(handlers) {
      handlers.connected(false);
      const connect = async () => {
        retry = null;
        const next = new pg.Client({ connectionString });
        client = next;
        const lost = (reason: string) => {
          if (client !== next) return;
          client = null;
          handlers.connected(false);
          next.end().catch(() => {});
          if (closed) return;
          logger.warn("revocation listener lost its database connection", { reason });
          retry = setTimeout(connect, RECONNECT_DELAY_MS);
          retry.unref();
        };
        next.on("error", (error) => lost(error.message));
        next.on("end", () => lost("connection ended"));
        next.on("notification", (message) => {
          if (message.channel === REVOCATION_CHANNEL && message.payload) handlers.revoked(message.payload);
        });
        try {
          await next.connect();
          await next.query(`LISTEN ${REVOCATION_CHANNEL}`);
          if (client === next && !closed) handlers.connected(true);
        } catch (error) {
          lost(String(error));
        }
      };
      void connect();
    },
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
