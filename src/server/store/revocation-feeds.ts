import type { Logger } from "../logger.js";
import type { RedisClient } from "./redis-client.js";
import type { RevocationFeed } from "./revocation-feed.js";

/** The one channel every instance listens on; messages are user ids. */
export const REVOCATION_CHANNEL = "gatehouse_session_revocations";

/**
 * Redis pub/sub. Publishing uses the shared connection; listening needs a connection of its own
 * (a subscribed Redis connection can do nothing else). ioredis reconnects by itself; this feed
 * reports "disconnected" from the moment the subscriber drops until it has subscribed again.
 *
 * @example
 * import { Redis } from "ioredis";
 * const redis = new Redis(process.env.REDIS_URL!);
 * const auth = await createAuth({
 *   baseURL, secret, database,
 *   rateLimitStore: new RedisRateLimitStore(redis),
 *   revocationFeed: redisRevocationFeed(redis, consoleLogger),
 * });
 */
export function redisRevocationFeed(redis: RedisClient, logger: Logger): RevocationFeed {
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
