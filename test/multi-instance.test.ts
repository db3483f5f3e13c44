import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { type Instance, startInstances } from "./helpers/instances.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";

// Three real service processes on one PostgreSQL database and one Redis, started at once on an
// empty database (so their migrations race too), with the cookie cache on: what one instance
// does must hold on the others. Runs where CI runs it: TEST_DATABASE_URL and a Redis present.

const noRedis = await redisUnavailable();
if (noRedis && dialectUnderTest() === "postgres") console.warn(`multi-instance tests skipped: ${noRedis}`);
const PASSWORD = "correct horse battery";

describe.skipIf(dialectUnderTest() !== "postgres" || noRedis)("three instances, one PostgreSQL, one Redis", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let mail: MailCapture;
  let cluster: Awaited<ReturnType<typeof startInstances>>;
  let a: Instance;
  let b: Instance;
  let c: Instance;
  // Every test uses addresses of its own: rate-limit windows live in the shared Redis across runs.
  const ipBase = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  let ipCounter = 0;
  const nextIp = () => `${ipBase}.${++ipCounter}`;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    mail = await startMailCapture();
    cluster = await startInstances({
      count: 3,
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      smtpUrl: mail.url,
      options: {
        session: { cookieCache: { enabled: true, maxAge: 300 } },
        emailVerification: { sendOnSignUp: true },
        jwt: { enabled: true },
        rateLimit: { enabled: true, customRules: { "/get-session": false } },
        advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
      },
    });
    [a, b, c] = cluster.instances as [Instance, Instance, Instance];
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    await mail?.close();
    await database?.drop();
  });

  async function signUp(instance: Instance) {
    const browser = instance.browser();
    const email = `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const res = await browser.post(
      "/sign-up/email",
      { name: "Multi", email, password: PASSWORD },
      { headers: { "x-forwarded-for": nextIp() } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { browser, email, user: res.body.user };
  }

  /**
   * Waits until get-session answers from the cookie cache (no Set-Cookie: no database read), so a
   * later refusal shows the revocation reached this instance. An instance refuses copies for a
   * moment after it starts listening (it cannot know what it missed), hence the wait.
   */
  async function answeredFromCache(browser: TestBrowser, userId: string): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < 5000) {
      const res = await browser.get("/get-session");
      expect(res.body?.user.id).toBe(userId);
      if (res.setCookies.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("get-session never answered from the cookie cache");
  }

  /** Polls get-session until it answers null, failing after a second. */
  async function refusedWithinASecond(browser: TestBrowser): Promise<void> {
    const started = Date.now();
    while (Date.now() - started < 1000) {
      if ((await browser.get("/get-session")).body === null) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("the cached copy was still answered a second after the revocation");
  }

  it("every instance is up and publishes one and the same signing key", async () => {
    for (const instance of [a, b, c]) expect((await instance.browser().get("/ok")).body).toEqual({ ok: true });
    const sets = await Promise.all([a, b, c, a, b, c].map(async (i) => (await i.browser().get("/jwks")).body.keys));
    const kids = sets.map((keys: { kid: string }[]) => keys.map((k) => k.kid).join());
    expect(new Set(kids).size).toBe(1);
    expect(sets[0]).toHaveLength(1);
  });

  it("sign-in on A, revoke on B: A refuses its cached copy within a second", async () => {
    const victim = await signUp(a);
    await answeredFromCache(victim.browser, victim.user.id);
    expect((await victim.browser.copyTo(b.origin).post("/revoke-sessions", {})).status).toBe(200);
    await refusedWithinASecond(victim.browser);
  });

  it("sign-out on A is seen by C's cached copy", async () => {
    const victim = await signUp(a);
    const onC = victim.browser.copyTo(c.origin);
    await answeredFromCache(onC, victim.user.id);
    await victim.browser.post("/sign-out", {});
    await refusedWithinASecond(onC);
  });

  it("a ban on B ends the copies on A and C", async () => {
    const admin = await signUp(b);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`UPDATE "user" SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    await client.end();
    const victim = await signUp(a);
    const onC = victim.browser.copyTo(c.origin);
    await answeredFromCache(onC, victim.user.id);
    await answeredFromCache(victim.browser, victim.user.id);
    const ban = await admin.browser.post("/admin/ban-user", { userId: victim.user.id, banReason: "spam" });
    expect(ban.status, JSON.stringify(ban.body)).toBe(200);
    await Promise.all([refusedWithinASecond(victim.browser), refusedWithinASecond(onC)]);
  });

  it("shares the rate limit: three sign-in attempts from one address across instances, the fourth is refused", async () => {
    const headers = { "x-forwarded-for": nextIp() };
    const body = { email: "nobody@example.com", password: "wrong password" };
    const statuses: number[] = [];
    for (const instance of [a, b, c, a]) {
      statuses.push((await instance.browser().post("/sign-in/email", body, { headers })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("delivers one mail per enqueue under parallel sign-ups spread over the instances", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp([a, b, c][i % 3]!)));
    const addresses = results.map((r) => r.email);
    await Promise.all(addresses.map((address) => mail.waitFor((m) => m.to === address, 10_000)));
    // Give a double delivery time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const address of addresses) expect([address, mail.to(address).length]).toEqual([address, 1]);
  });

  it("an organization slug raced from two instances is decided by the database", async () => {
    const [first, second] = await Promise.all([signUp(a), signUp(b)]);
    const slug = `race-${Math.random().toString(36).slice(2, 8)}`;
    const [one, two] = await Promise.all([
      first.browser.post("/organization/create", { name: "Race", slug }),
      second.browser.post("/organization/create", { name: "Race", slug }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    expect([one, two].find((r) => r.status === 400)!.body.code).toBe("ORGANIZATION_ALREADY_EXISTS");
  });

  it("a members page kept on A shows a rename on B and a member who joined on C at once", async () => {
    const owner = await signUp(a);
    // Only a verified address may invite (the mailed link, done here directly).
    const verifier = new pg.Client({ connectionString: database.url });
    await verifier.connect();
    await verifier.query('update "user" set "emailVerified" = true where id = $1', [owner.user.id]);
    await verifier.end();
    const slug = `kept-${Math.random().toString(36).slice(2, 8)}`;
    expect((await owner.browser.post("/organization/create", { name: "Kept", slug })).status).toBe(200);
    const names = async () =>
      (await owner.browser.get("/organization/list-members")).body.members.map((m: any) => m.user.name);
    expect(await names()).toEqual(["Multi"]);
    expect(await names()).toEqual(["Multi"]);

    expect((await owner.browser.copyTo(b.origin).post("/update-user", { name: "Renamed" })).status).toBe(200);
    expect(await names()).toEqual(["Renamed"]);

    const invitee = await signUp(c);
    const invitation = await owner.browser
      .copyTo(b.origin)
      .post("/organization/invite-member", { email: invitee.email, role: "member" });
    expect(invitation.status, JSON.stringify(invitation.body)).toBe(200);
    const accepted = await invitee.browser.post("/organization/accept-invitation", {
      invitationId: invitation.body.id,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await names()).toEqual(["Renamed", "Multi"]);
  });

  it("no instance logged an error", () => {
    for (const instance of [a, b, c]) expect(instance.output()).not.toMatch(/"level":"error"/);
  });
});

describe.skipIf(dialectUnderTest() !== "postgres")("an instance whose Redis is away", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let cluster: Awaited<ReturnType<typeof startInstances>>;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    cluster = await startInstances({
      count: 1,
      databaseUrl: database.url,
      // Nothing listens on port 1.
      redisUrl: "redis://127.0.0.1:1",
      options: {
        session: { cookieCache: { enabled: true, maxAge: 300 } },
        rateLimit: { enabled: true },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    await database?.drop();
  });

  it("keeps serving: sign-up and get-session work, the cache is not trusted (database reads), readiness says why", async () => {
    const [instance] = cluster.instances as [Instance];
    const browser = instance.browser();
    const started = Date.now();
    const email = `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const res = await browser.post("/sign-up/email", { name: "No Redis", email, password: PASSWORD });
    expect(res.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const session = await browser.get("/get-session");
      expect(session.body.user.email).toBe(email);
      // Fail closed: every answer came from the database (which re-sends the cache cookie).
      expect(session.setCookies.some((line) => line.startsWith("gatehouse.session_data="))).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(5000);
    const ready = await instance.browser().get("/ready");
    expect([ready.status, ready.body]).toEqual([200, { ready: true, database: true, revocations: false }]);
  });
});
