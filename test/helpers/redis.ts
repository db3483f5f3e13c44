import { Socket } from "node:net";

/**
 * The tests' Redis: a database of its own (15), never the default 0 a developer's other work uses.
 * TEST_REDIS_URL names another.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/15";

/** Whether something answers on the Redis URL's host and port (a connect, nothing sent). */
function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(Number(port || 6379), hostname || "127.0.0.1", () => done(true));
  });
}

let probe: Promise<string | null> | undefined;

/** Why the Redis tests cannot run here, or null when they can; asked once per process. */
export function redisUnavailable(): Promise<string | null> {
  probe ??= answers(TEST_REDIS_URL).then((up) =>
    up ? null : `no Redis answers at ${new URL(TEST_REDIS_URL).host} (TEST_REDIS_URL)`,
  );
  return probe;
}
