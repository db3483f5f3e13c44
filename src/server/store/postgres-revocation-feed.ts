import type pgType from "pg";
import type { Logger } from "../logger.js";
import type { RevocationFeed } from "./revocation-feed.js";
import { REVOCATION_CHANNEL } from "./revocation-feeds.js";

/** How long a lost PostgreSQL listener waits before connecting again. */
const RECONNECT_DELAY_MS = 500;

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
