import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "./helpers/browser.js";
import { bundleInto } from "./helpers/bundle.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { freePort, type StartingService, spawnService, stopProcesses } from "./helpers/instances.js";
import { unavailable } from "./helpers/prerequisites.js";
import { fetchTrusting, startProxy, type TlsProxy, throwawayCertificate } from "./helpers/proxy.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";
import { TEST_SECRET } from "./helpers/server.js";

// Issue 49, part 7: what the image runs (scripts/docker-entrypoint.sh, migrations then the bundled
// service), twice, on one PostgreSQL database and one Redis, behind haproxy terminating TLS with
// deploy/haproxy.cfg and deploy/auth.json as compose.yaml uses them. Images cannot be pulled here,
// so the processes run on this machine instead of in containers.

const ROOT = resolve(import.meta.dirname, "..");
const noRedis = await redisUnavailable();
const noProxy = unavailable("proxy");
const skipped = dialectUnderTest() !== "postgres" || noRedis || noProxy;
if (dialectUnderTest() === "postgres" && (noRedis || noProxy)) {
  console.warn(`deployment test skipped: ${noRedis ?? noProxy}`);
}

/** Polls `check` until it holds (it throws until then), for at most `ms`. */
async function eventually(check: () => Promise<void>, ms = 5000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(skipped)("the image's entrypoint, twice, behind haproxy terminating TLS", () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let instances: StartingService[] = [];
  let proxy: TlsProxy;
  let trusting: ReturnType<typeof fetchTrusting>;

  async function start(entrypoint: string, pemPath: string) {
    const [proxyPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort()]);
    const environment = (port: number) => ({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      BASE_URL: `https://localhost:${proxyPort}`,
      AUTH_SECRET: TEST_SECRET,
      AUTH_CONFIG: join(ROOT, "deploy/auth.json"),
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      MAIL_DISABLED: "1",
    });
    // Both at once on an empty database: their migrations take turns.
    instances = [
      spawnService("A", [], environment(portA), entrypoint),
      spawnService("B", [], environment(portB), entrypoint),
    ];
    await Promise.all(instances.map((instance) => instance.listening));
    for (const instance of instances) expect(instance.output()).toMatch(/: (applied \d+ migration|already up to date)/);
    proxy = await startProxy({
      dir,
      port: proxyPort,
      pemPath,
      servers: { a: `127.0.0.1:${portA}`, b: `127.0.0.1:${portB}` },
    });
  }

  async function stop() {
    await proxy?.close();
    await stopProcesses(instances.map((instance) => instance.child));
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "gatehouse-deployment-"));
    // The image's layout: dist/server, dist/cli and node_modules beside scripts/docker-entrypoint.sh.
    await Promise.all([bundleInto(join(dir, "dist"), "src/main.ts"), bundleInto(join(dir, "dist"), "src/cli/main.ts")]);
    mkdirSync(join(dir, "scripts"));
    const entrypoint = join(dir, "scripts", "docker-entrypoint.sh");
    copyFileSync(join(ROOT, "scripts/docker-entrypoint.sh"), entrypoint);
    database = await freshDatabaseUrl();
    const { pemPath, certificate } = throwawayCertificate(dir);
    trusting = fetchTrusting(certificate);
    // A port found free can be taken by another process before it is listened on: such a start is
    // tried again on new ports (the instances must know the proxy's origin beforehand).
    for (let attempt = 1; ; attempt++) {
      try {
        await start(entrypoint, pemPath);
        break;
      } catch (error) {
        await stop();
        if (attempt === 3 || !/EADDRINUSE|Address already in use/.test(String(error))) throw error;
      }
    }
    // The health checks (GET /api/auth/ready) put both in the rotation.
    await eventually(async () => expect(await proxy.serverStates()).toEqual({ a: "UP", b: "UP" }), 15_000);
  }, 60_000);

  afterAll(async () => {
    await stop();
    await trusting?.close();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Sends every request to one instance: the other is drained (no new requests, still health-checked). */
  async function only(server: "a" | "b") {
    const other = server === "a" ? "b" : "a";
    expect(await proxy.admin(`set server gatehouse/${server} state ready`)).toBe("\n");
    expect(await proxy.admin(`set server gatehouse/${other} state drain`)).toBe("\n");
  }

  /** get-session answered from the cookie cache (no Set-Cookie): a later refusal shows a revocation arrived. */
  async function answeredFromCache(browser: TestBrowser, userId: string) {
    await eventually(async () => {
      const res = await browser.get("/get-session");
      expect(res.body?.user.id).toBe(userId);
      expect(res.setCookies).toEqual([]);
    });
  }

  it("signs in on A, is signed in on B, and a sign-out on B holds on A", async () => {
    const browser = new TestBrowser(proxy.origin, "/api/auth", trusting.fetch);
    await only("a");
    const before = await proxy.served();
    const email = `deploy-${Math.random().toString(36).slice(2, 10)}@example.com`;
    // A client's own X-Forwarded-For is replaced by the proxy's view of it.
    const signUp = await browser.post(
      "/sign-up/email",
      { name: "Deployed", email, password: "correct horse battery" },
      { headers: { "x-forwarded-for": "203.0.113.7" } },
    );
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
    const userId: string = signUp.body.user.id;
    const after = await proxy.served();
    expect([after.a! - before.a!, after.b! - before.b!]).toEqual([1, 0]);
    // BASE_URL is https: the cookies are Secure and host-only, though the instance itself speaks http.
    expect(signUp.setCookies.length).toBeGreaterThan(0);
    for (const line of signUp.setCookies) expect(line).toMatch(/^__Host-.*; Secure/i);
    const [session] = (await browser.get("/list-sessions")).body;
    expect(session.ipAddress).toBe("127.0.0.1");
    await answeredFromCache(browser, userId);

    await only("b");
    await answeredFromCache(browser, userId);
    expect((await browser.get("/get-session?disableCookieCache=true")).body.user.email).toBe(email);
    const copy = browser.copyTo();
    const signOut = await browser.post("/sign-out");
    expect(signOut.status).toBe(200);

    // A had the session's signed copy in hand; the revocation reached it through Redis.
    await only("a");
    await eventually(async () => expect((await copy.get("/get-session")).body).toBeNull(), 3000);
    expect((await copy.get("/get-session?disableCookieCache=true")).body).toBeNull();
  });

  it("answers the health check through the proxy, and takes a drained instance out of the rotation", async () => {
    const browser = new TestBrowser(proxy.origin, "/api/auth", trusting.fetch);
    await only("b");
    expect(await proxy.serverStates()).toEqual({ a: "DRAIN", b: "UP" });
    const ready = await browser.get("/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ ready: true, database: true, revocations: true });
    await only("a");
    expect(await proxy.serverStates()).toEqual({ a: "UP", b: "DRAIN" });
  });

  it("stops on the container's SIGTERM; the proxy sends B's share to A until its checks take it out", async () => {
    const browser = new TestBrowser(proxy.origin, "/api/auth", trusting.fetch);
    expect(await proxy.admin("set server gatehouse/b state ready")).toBe("\n");
    const b = instances[1]!.child;
    const exited = new Promise<number | null>((resolve) => b.once("exit", (code) => resolve(code)));
    b.kill("SIGTERM");
    // The script exec'd node: the service itself got the signal and closed cleanly (a shell would
    // have died of it and left the service running).
    expect(await exited).toBe(0);
    for (let i = 0; i < 4; i++) expect((await browser.get("/ok")).status).toBe(200);
    await eventually(async () => expect((await proxy.serverStates()).b).toMatch(/^DOWN/), 10_000);
  });
});
