import { serve } from "@hono/node-server";
import { createAuth } from "./server/auth.js";
import { demoOptions } from "./server/demo-options.js";
import { readEnvironment } from "./server/environment.js";
import { consoleLogger } from "./server/logger.js";
import { ConfigError } from "./server/options.js";
import { RedisRateLimitStore } from "./server/store/redis-rate-limit-store.js";
import { redisRevocationFeed } from "./server/store/revocation-feeds.js";
import { createServiceApp } from "./service-app.js";

/** The service: reads the environment, migrates, serves /api/auth and the application on one port. */
async function main(): Promise<void> {
  const env = readEnvironment();
  // REDIS_URL: rate-limit counters and session revocations shared by every instance; without it the
  // counters live in this process and revocations travel through PostgreSQL (or stay in this process
  // on SQLite). ioredis is loaded only when REDIS_URL is set (it costs about 20 MB resident).
  const redis = env.redisUrl
    ? new (await import("ioredis")).Redis(env.redisUrl, {
        maxRetriesPerRequest: 2,
        // While Redis is away, fail at once (rate limits open, revocations fail closed) instead of queueing.
        enableOfflineQueue: false,
      })
    : null;
  const auth = await createAuth({
    baseURL: env.baseURL,
    secret: env.secret,
    database: env.databaseUrl,
    options: env.options ?? demoOptions,
    mail: { smtpUrl: env.smtpUrl, from: env.mailFrom },
    production: env.production,
    rateLimitStore: redis ? new RedisRateLimitStore(redis) : undefined,
    revocationFeed: redis ? redisRevocationFeed(redis, consoleLogger) : undefined,
  });

  const root = createServiceApp(auth);

  // API requests skip the outer router (a second routing pass and context per request); anything
  // else, including unusual spellings of the API path, takes the routes above.
  const apiPrefix = "/api/auth/";
  const fetch = (request: Request, env: unknown) => {
    const url = request.url;
    const pathStart = url.indexOf("/", url.indexOf("://") + 3);
    return url.startsWith(apiPrefix, pathStart) ? auth.handler(request, env) : root.fetch(request, env);
  };

  const server = serve({ fetch, port: env.port, hostname: env.host }, (info) => {
    console.log(`Gatehouse listening on http://${env.host}:${info.port} (public ${env.baseURL})`);
    if (auth.context.mail.transportName === "development" && !env.production) {
      console.log(`No SMTP_URL: mail stays in the development outbox, ${env.baseURL}/dev/outbox`);
    }
  });
  const stop = () => {
    server.close();
    redis?.disconnect();
    void auth.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(`Gatehouse cannot start:\n${error.message}`);
    process.exit(78);
  }
  console.error(error);
  process.exit(1);
});
