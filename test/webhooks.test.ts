import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ConfigError } from "../src/server/options.js";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import { WEBHOOK_EVENTS } from "../src/server/webhooks/events.js";
import { dialectUnderTest } from "./helpers/database.js";
import { createOrganization, joinAs, uniqueSlug } from "./helpers/organization.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { newWebhookSecret, WebhookReceiver } from "./helpers/webhook-receiver.js";

const ALL_EVENTS = [...WEBHOOK_EVENTS];
const SESSION_KEYS = ["expiresAt", "id", "ipAddress", "userAgent", "userId"];

let receiver: WebhookReceiver;
let server: TestServer;

function webhookServer(
  target: WebhookReceiver,
  events: string[] = ALL_EVENTS,
  delivery: Record<string, number> = {},
  more: Partial<Parameters<typeof startTestServer>[0]> = {},
) {
  return startTestServer({
    options: { ...EVERY_FEATURE_ON, webhooks: [{ url: target.url, secret: target.secret, events }] },
    extra: { webhookDelivery: { retryBaseMs: 20, ...delivery } },
    ...more,
  });
}

/** Waits until everything queued so far has had its attempt. */
const settle = (on: TestServer = server) => on.auth.context.webhooks.flush();

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  server = await webhookServer(receiver);
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("users and sessions", () => {
  it("signs up: user.created and session.created, signed, in wire shapes, with no secret in them", async () => {
    const account = await signUp(server, { name: "Webhook Person" });
    await settle();
    const [created] = receiver.delivered("user.created").filter((e) => e.data.id === account.user.id);
    expect(created).toMatchObject({
      type: "user.created",
      data: { id: account.user.id, email: account.email, name: "Webhook Person", emailVerified: false },
    });
    expect(Number.isNaN(Date.parse(created!.timestamp))).toBe(false);
    expect(created!.id).toMatch(/^msg_/);
    expect(Object.keys(created!.data).sort()).toEqual(Object.keys(account.user).sort());

    const [session] = receiver.delivered("session.created").filter((e) => e.data.userId === account.user.id);
    expect(Object.keys(session!.data).sort()).toEqual(SESSION_KEYS);
    expect(session!.data.userAgent).toBeTruthy();
    const raw = receiver.received.filter((r) => r.body.includes(account.user.id)).map((r) => r.body);
    for (const body of raw) {
      expect(body).not.toContain(account.token);
      expect(body).not.toContain(account.password);
      expect(body).not.toMatch(/"(token|tokenHash|password|secret)"/);
    }
  });

  it("tells of a profile update, a sign-out and each revoked session", async () => {
    const account = await signUp(server);
    const second = server.browser();
    const third = server.browser();
    for (const browser of [second, third]) {
      await browser.post("/sign-in/email", { email: account.email, password: account.password });
    }
    await account.browser.post("/update-user", { name: "Renamed" });
    await third.post("/sign-out", {});
    await settle();
    expect(receiver.delivered("user.updated").filter((e) => e.data.id === account.user.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ name: "Renamed" }) }),
    ]);
    const revoked = () => receiver.delivered("session.revoked").filter((e) => e.data.userId === account.user.id);
    expect(revoked()).toHaveLength(1);

    // revoke-other-sessions ends the second browser's session; revoke-sessions then the caller's own.
    await account.browser.post("/revoke-other-sessions", {});
    await settle();
    expect(revoked()).toHaveLength(2);
    await account.browser.post("/revoke-sessions", {});
    await settle();
    expect(revoked()).toHaveLength(3);
    expect(new Set(revoked().map((e) => e.data.id)).size).toBe(3);
    for (const event of revoked()) expect(Object.keys(event.data).sort()).toEqual(SESSION_KEYS);
  });

  it("revoke-session names one session by its handle", async () => {
    const account = await signUp(server);
    const other = server.browser();
    await other.post("/sign-in/email", { email: account.email, password: account.password });
    const list = await account.browser.get("/list-sessions");
    const handle = list.body.find((s: any) => !s.current).token;
    await account.browser.post("/revoke-session", { token: handle });
    await settle();
    const revoked = receiver.delivered("session.revoked").filter((e) => e.data.userId === account.user.id);
    expect(revoked.map((e) => e.data.id)).toEqual([handle]);
  });

  it("a change made through auth.api is delivered at once, not at the next poll", async () => {
    const quiet = await webhookServer(receiver, ["user.created"], { pollIntervalMs: 3_600_000 });
    try {
      const email = `api-${crypto.randomUUID()}@example.com`;
      const { user } = await quiet.auth.api.signUpEmail({
        body: { email, password: "a long enough password", name: "Via API" },
      });
      await vi.waitFor(() => expect(receiver.delivered("user.created").map((e) => e.data.id)).toContain(user.id), {
        timeout: 10_000,
      });
    } finally {
      await quiet.close();
    }
  });

  it("account deletion sends user.deleted with the user as they were", async () => {
    const account = await signUp(server);
    const res = await account.browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    await settle();
    expect(receiver.delivered("user.deleted").filter((e) => e.data.id === account.user.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ email: account.email }) }),
    ]);
  });

  it("admin ban revokes the sessions (user.updated + session.revoked each); admin removal is user.deleted", async () => {
    const admin = await signUp(server);
    await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
    const target = await signUp(server);
    await server.browser().post("/sign-in/email", { email: target.email, password: target.password });
    const banned = await admin.browser.post("/admin/ban-user", { userId: target.user.id, banReason: "spam" });
    expect(banned.status).toBe(200);
    await settle();
    expect(receiver.delivered("user.updated").filter((e) => e.data.id === target.user.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ banned: true, banReason: "spam" }) }),
    ]);
    expect(receiver.delivered("session.revoked").filter((e) => e.data.userId === target.user.id)).toHaveLength(2);

    expect((await admin.browser.post("/admin/remove-user", { userId: target.user.id })).status).toBe(200);
    await settle();
    expect(receiver.delivered("user.deleted").filter((e) => e.data.id === target.user.id)).toHaveLength(1);
  });

  it("a guest who signs up: the guest's user.deleted, the account's user.created, its organization's member moves", async () => {
    const browser = server.browser();
    const guest = (await browser.post("/sign-in/anonymous", {})).body.user;
    const org = await browser.post("/organization/create", { name: "Guest work", slug: uniqueSlug("guest") });
    expect(org.status).toBe(200);
    const email = `upgrade-${Math.random().toString(36).slice(2)}@example.com`;
    const up = await browser.post("/sign-up/email", { name: "Real", email, password: "correct horse battery" });
    expect(up.status).toBe(200);
    await settle();
    expect(receiver.delivered("user.created").map((e) => e.data.id)).toEqual(
      expect.arrayContaining([guest.id, up.body.user.id]),
    );
    expect(receiver.delivered("user.created").find((e) => e.data.id === guest.id)?.data.isAnonymous).toBe(true);
    expect(receiver.delivered("user.deleted").filter((e) => e.data.id === guest.id)).toHaveLength(1);
    const moved = receiver.delivered("member.updated").filter((e) => e.data.organizationId === org.body.id);
    expect(moved.map((e) => e.data.userId)).toEqual([up.body.user.id]);
  });
});

describe("organizations, members and invitations", () => {
  it("tells the whole life of an organization through its routes", async () => {
    const { owner, organizationId } = await createOrganization(server, { name: "Hooked" });
    await owner.browser.post("/organization/update", { organizationId, data: { name: "Hooked Again" } });
    const colleague = await joinAs(server, organizationId, "member", "Colleague");
    await owner.browser.post("/organization/update-member-role", { memberId: colleague.memberId, role: "admin" });
    await owner.browser.post("/organization/remove-member", { memberIdOrEmail: colleague.memberId });

    const inviteeEmail = `invitee-${Math.random().toString(36).slice(2)}@example.com`;
    const invited = await owner.browser.post("/organization/invite-member", { email: inviteeEmail, role: "member" });
    const invitee = await signUp(server, { email: inviteeEmail });
    await invitee.browser.post("/organization/accept-invitation", { invitationId: invited.body.id });

    const rejecterEmail = `rejecter-${Math.random().toString(36).slice(2)}@example.com`;
    const toReject = await owner.browser.post("/organization/invite-member", { email: rejecterEmail, role: "member" });
    const rejecter = await signUp(server, { email: rejecterEmail });
    await rejecter.browser.post("/organization/reject-invitation", { invitationId: toReject.body.id });
    const toCancel = await owner.browser.post("/organization/invite-member", {
      email: `x-${Math.random()}@example.com`,
      role: "member",
    });
    await owner.browser.post("/organization/cancel-invitation", { invitationId: toCancel.body.id });
    expect((await owner.browser.post("/organization/delete", { organizationId })).status).toBe(200);
    await settle();

    const ofOrg = receiver
      .delivered()
      .filter((e) => e.data.organizationId === organizationId || e.data.id === organizationId)
      .map((e) => `${e.type}${e.data.role ? `:${e.data.role}` : ""}`);
    // Deliveries run side by side, so their order is not promised: compare as a multiset.
    expect(ofOrg.sort()).toEqual(
      [
        "organization.created",
        "member.added:owner",
        "organization.updated",
        "member.added:member",
        "member.updated:admin",
        "member.removed:admin",
        "invitation.created:member",
        "invitation.accepted:member",
        "member.added:member",
        "invitation.created:member",
        "invitation.rejected:member",
        "invitation.created:member",
        "invitation.canceled:member",
        // Deleting the organization removes its members with it: one organization.deleted, no member.removed.
        "organization.deleted",
      ].sort(),
    );
    expect(receiver.delivered("organization.updated").find((e) => e.data.id === organizationId)?.data.name).toBe(
      "Hooked Again",
    );
    const accepted = receiver.delivered("invitation.accepted").find((e) => e.data.id === invited.body.id);
    expect(accepted?.data).toMatchObject({ status: "accepted", email: inviteeEmail });
  });

  it("a refused change sends nothing: an accept that rolls back after queueing its event", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const inviter = await joinAs(server, organizationId, "admin", "Inviter");
    const email = `rolled-${Math.random().toString(36).slice(2)}@example.com`;
    const invited = await inviter.browser.post("/organization/invite-member", { email, role: "member" });
    expect(invited.status).toBe(200);
    await owner.browser.post("/organization/remove-member", { memberIdOrEmail: inviter.memberId });
    const invitee = await signUp(server, { email });
    await settle();
    const before = await server.auth.context.webhooks.list(1000);

    // invitation.accepted is queued, then the inviter check fails and the transaction rolls back.
    const res = await invitee.browser.post("/organization/accept-invitation", { invitationId: invited.body.id });
    expect(res.body.code).toBe("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
    await settle();
    expect(await server.auth.context.webhooks.list(1000)).toHaveLength(before.length);
    expect(receiver.delivered("invitation.accepted").filter((e) => e.data.id === invited.body.id)).toEqual([]);
  });

  it("a transaction that rolls back leaves no delivery", async () => {
    const { db } = server.auth.database;
    const user = (await signUp(server)).user;
    await settle();
    const count = receiver.received.length;
    await expect(
      db.transaction().execute(async (trx) => {
        await server.auth.context.webhooks.enqueue(trx, "user.updated", {
          ...user,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        throw new Error("change failed");
      }),
    ).rejects.toThrow("change failed");
    await settle();
    expect(receiver.received.length).toBe(count);
  });
});

describe("delivery", () => {
  it("keeps events through a receiver outage (500, then down) and delivers them when it is back, same webhook-id", async () => {
    const flaky = await WebhookReceiver.start();
    // A retry waits a minute on the server's clock: the test moves the clock, so no attempt comes early.
    const down = await webhookServer(flaky, ["user.created"], { retryBaseMs: 60_000 });
    try {
      flaky.answer = 500;
      const account = await signUp(down);
      await settle(down);
      const [first] = await down.auth.context.webhooks.list();
      expect(first).toMatchObject({ eventType: "user.created", attempts: 1, deliveredAt: null, lastError: "HTTP 500" });

      await flaky.down();
      down.clock.advance(61); // past the first backoff
      await settle(down);
      const [second] = await down.auth.context.webhooks.list();
      expect(second).toMatchObject({ attempts: 2, deliveredAt: null });
      expect(second!.lastError).toMatch(/fetch failed|ECONNREFUSED/);

      flaky.answer = 204;
      await flaky.up();
      down.clock.advance(121); // past the second, doubled
      await settle(down);
      const [delivered] = await down.auth.context.webhooks.list();
      expect(delivered).toMatchObject({ attempts: 3, lastError: null });
      expect(delivered!.deliveredAt).toBeInstanceOf(Date);
      // The 500 attempt and the delivery carry the same id, so a receiver can drop a duplicate.
      expect(flaky.received.map((r) => [r.id, r.status])).toEqual([
        [first!.id, 500],
        [first!.id, 204],
      ]);
      expect(flaky.delivered("user.created")[0]?.data.id).toBe(account.user.id);
      expect(down.loggedErrors).toEqual([]);
    } finally {
      await down.close();
      await flaky.close();
    }
  });

  it("an answer too slow to arrive is retried: the receiver sees the same webhook-id twice", async () => {
    const slow = await WebhookReceiver.start();
    const sender = await webhookServer(slow, ["user.created"], { timeoutMs: 150, retryBaseMs: 60_000 });
    try {
      slow.delayMs = 400;
      await signUp(sender);
      await settle(sender);
      const [entry] = await sender.auth.context.webhooks.list();
      expect(entry).toMatchObject({ attempts: 1, deliveredAt: null });
      expect(entry!.lastError).toMatch(/timeout|abort/i);
      slow.delayMs = 0;
      sender.clock.advance(61);
      await settle(sender);
      expect((await sender.auth.context.webhooks.list())[0]?.deliveredAt).toBeInstanceOf(Date);
      expect(slow.received.map((r) => r.id)).toEqual([entry!.id, entry!.id]);
      expect(slow.received.every((r) => r.payload !== null)).toBe(true);
    } finally {
      await sender.close();
      await slow.close();
    }
  });

  it("gives up after the last allowed attempt and keeps the row, with its error, for inspection", async () => {
    const broken = await WebhookReceiver.start();
    broken.answer = 503;
    const sender = await webhookServer(broken, ["user.created"], { maxAttempts: 2, retryBaseMs: 60_000 });
    try {
      await signUp(sender);
      await settle(sender);
      sender.clock.advance(61);
      await settle(sender);
      sender.clock.advance(121);
      await settle(sender);
      const [entry] = await sender.auth.context.webhooks.list();
      expect(entry).toMatchObject({ attempts: 2, deliveredAt: null, lastError: "HTTP 503" });
      expect(entry!.failedAt).toBeInstanceOf(Date);
      expect(broken.received).toHaveLength(2);
    } finally {
      await sender.close();
      await broken.close();
    }
  });

  it.skipIf(dialectUnderTest() !== "postgres")(
    "two instances draining one table send each delivery once (leases)",
    async () => {
      const shared = await WebhookReceiver.start();
      const first = await webhookServer(shared, ["user.created"]);
      const second = await webhookServer(shared, ["user.created"], {}, { shareDatabaseWith: first });
      try {
        shared.delayMs = 30;
        const { db } = first.auth.database;
        const now = first.clock.now();
        const user = (await signUp(first)).user;
        await settle(first);
        shared.received.length = 0;
        await db.transaction().execute(async (trx) => {
          for (let i = 0; i < 30; i++) {
            await first.auth.context.webhooks.enqueue(trx, "user.created", {
              ...user,
              name: `n${i}`,
              createdAt: now,
              updatedAt: now,
            });
          }
        });
        await Promise.all([settle(first), settle(second), settle(first), settle(second)]);
        expect(shared.received).toHaveLength(30);
        expect(new Set(shared.received.map((r) => r.id)).size).toBe(30);
      } finally {
        await second.close();
        await first.close();
        await shared.close();
      }
    },
  );

  it("housekeeping prunes delivered rows after a week and keeps pending ones", async () => {
    const keeper = await WebhookReceiver.start();
    const sender = await webhookServer(keeper, ["user.created"]);
    try {
      await signUp(sender);
      await settle(sender);
      keeper.answer = 500;
      await signUp(sender);
      await settle(sender);
      expect((await sender.auth.context.webhooks.list()).map((e) => e.deliveredAt !== null).sort()).toEqual([
        false,
        true,
      ]);
      sender.clock.advance(8 * 86400);
      expect((await sweepExpired(sender.auth.context))?.webhooks).toBe(1);
      const left = await sender.auth.context.webhooks.list();
      expect(left).toHaveLength(1);
      expect(left[0]?.deliveredAt).toBeNull();
    } finally {
      await sender.close();
      await keeper.close();
    }
  });
});

describe("cost when nothing subscribes", () => {
  async function signInQueries(target: TestServer): Promise<number> {
    const account = await signUp(target);
    const browser = target.browser();
    const before = target.queryCount();
    const res = await browser.post("/sign-in/email", { email: account.email, password: account.password });
    expect(res.status).toBe(200);
    return target.queryCount() - before;
  }

  it("sign-in makes the same round trips with no webhook, or none for session.created; a subscription adds its own", async () => {
    // The same features as the webhook servers (enforced SSO, for one, reads the address's domain).
    const plain = await startTestServer({ options: EVERY_FEATURE_ON });
    const other = await webhookServer(receiver, ["user.deleted"]);
    try {
      // The workers' passes would count too: stop them (enqueueing still works, it would write rows). The
      // mail worker, woken when a request that queued a mail (sign-up, a new device) ends, raced the count.
      await other.auth.context.webhooks.stop();
      await Promise.all([plain, other].map((s) => s.auth.context.mail.stop()));
      const off = await signInQueries(plain);
      expect(await signInQueries(other)).toBe(off);
      // Subscribed: the session insert and its event commit together (a transaction and an insert more),
      // and the worker then sends it.
      expect(await signInQueries(server)).toBeGreaterThan(off);
      expect(await other.auth.context.webhooks.list()).toEqual([]);
    } finally {
      await other.close();
      await plain.close();
    }
  });
});

describe("configuration", () => {
  const base = { baseURL: "http://127.0.0.1:1", secret: TEST_SECRET, database: "sqlite::memory:" };
  const withHook = (hook: Record<string, unknown>, production = false) =>
    import("../src/server/auth.js").then(({ createAuth }) =>
      createAuth({
        ...base,
        production,
        mail: { disabled: true },
        options: {
          webhooks: [
            { url: "https://hooks.example.com/in", secret: newWebhookSecret(), events: ["user.created"], ...hook },
          ],
        },
      }),
    );

  it.each([
    ["a secret without the whsec_ prefix", { secret: "plain-secret-of-some-length-123456" }, "webhooks.0.secret"],
    ["a secret that is not base64", { secret: "whsec_***" }, "webhooks.0.secret"],
    ["an unknown event", { events: ["user.exploded"] }, "webhooks.0.events.0"],
    ["no events", { events: [] }, "webhooks.0.events"],
    ["a non-http URL", { url: "ftp://hooks.example.com/in" }, "webhooks.0.url"],
  ])("refuses %s with a ConfigError naming the option", async (_, hook, key) => {
    const attempt = withHook(hook);
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(withHook(hook)).rejects.toThrow(`option "${key}"`);
  });

  it("refuses plain http in production unless the receiver is on loopback", async () => {
    await expect(withHook({ url: "http://hooks.example.com/in" }, true)).rejects.toThrow(ConfigError);
    await expect(withHook({ url: "http://hooks.example.com/in" }, true)).rejects.toThrow(/must be https/);
    const loopback = await withHook({ url: "http://127.0.0.1:9/in" }, true);
    await loopback.close();
    const development = await withHook({ url: "http://hooks.example.com/in" }, false);
    await development.close();
  });
});
