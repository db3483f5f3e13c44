import { serve } from "@hono/node-server";
import { createAuth } from "./server/auth.js";
import { type ServiceEnvironment, serviceMailOptions } from "./server/environment.js";
import { consoleLogger } from "./server/logger.js";
import { serviceOptions, startupSummary } from "./server/startup-summary.js";
import { RedisRateLimitStore } from "./server/store/redis-rate-limit-store.js";
import { redisRevocationFeed } from "./server/store/revocation-feeds.js";
import { createServiceApp, servesApplication } from "./service-app.js";

/**
 * The service (`npm start`, `gatehouse start`): migrates, serves /api/auth and, when built (this
 * repository, not the npm package), the application on one port; stops cleanly on SIGINT/SIGTERM.
 */
export async function startService(env: ServiceEnvironment): Promise<void> {
  // REDIS_URL: rate-limit counters and session revocations shared by every instance; without it the
  // counters live in this process and revocations travel through PostgreSQL (or stay in this process
  // on SQLite). ioredis is loaded only when REDIS_URL is set (its memory: bench/README.md, lazy loads).
  const redis = env.redisUrl
    ? new (await import("ioredis")).Redis(env.redisUrl, {
        maxRetriesPerRequest: 2,
        // While Redis is away, fail at once (rate limits open, revocations fail closed) instead of queueing.
        enableOfflineQueue: false,
      })
    : null;
  const { options, source } = serviceOptions(env);
  const auth = await createAuth({
    baseURL: env.baseURL,
    secret: env.secret,
    database: env.databaseUrl,
    options,
    mail: serviceMailOptions(env),
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

  const summary = startupSummary({
    env,
    optionsSource: source,
    options: auth.context.options,
    basePath: auth.context.basePath,
    application: servesApplication(),
  });
  const server = serve({ fetch, port: env.port, hostname: env.host }, (info) => {
    console.log(`Gatehouse listening on http://${env.host}:${info.port} (public ${env.baseURL})`);
    for (const line of summary) console.log(`  ${line}`);
  });
  const stop = () => {
    server.close();
    redis?.disconnect();
    void auth.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
