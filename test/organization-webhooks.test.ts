import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { WebhookReceiver } from "./helpers/webhook-receiver.js";

/**
 * Issue 34, item 2: an organization's owners stream its events (its audit trail) to their own
 * system through webhooks they manage, delivered by the real outbox to a real receiver on loopback.
 */

let server: TestServer;
let strict: TestServer;
let receiver: WebhookReceiver;
let receiverB: WebhookReceiver;

const ORGANIZATION = { enabled: true };

beforeAll(async () => {
  [receiver, receiverB] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
  // Receivers on loopback are allowed here (the test's own), as sso.allowPrivateIssuers allows issuers.
  server = await startTestServer({
    options: {
      organization: ORGANIZATION,
      audit: { enabled: true },
      organizationWebhooks: { enabled: true, allowPrivateUrls: true },
    },
    extra: { webhookDelivery: { retryBaseMs: 20 } },
  });
  // As deployed: public receivers only.
  strict = await startTestServer({
    options: { organization: ORGANIZATION, organizationWebhooks: { enabled: true, maxPerOrganization: 3 } },
    extra: { webhookDelivery: { retryBaseMs: 20, maxAttempts: 1 } },
  });
});
afterAll(async () => {
  await server?.close();
  await strict?.close();
  await Promise.all([receiver?.close(), receiverB?.close()]);
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(strict.loggedErrors).toEqual([]);
});

/** The organization's sealed entries of `action` (sealed first: a webhook streams an entry once sealed). */
async function trail(on: TestServer, organizationId: string, action: string) {
  await on.sealAudit();
  return on.auth.database.db
    .selectFrom("auditTrail")
    .select(["id", "seq", "hash", "action", "outcome", "details"])
    .where("organizationId", "=", organizationId)
    .where("action", "=", action as never)
    .orderBy("seq")
    .execute();
}

describe("an owner's webhook", () => {
  it("receives its organization's audited changes signed, exactly once; never another organization's", async () => {
    const a = await createOrganization(server);
    const b = await createOrganization(server);
    const created = await a.owner.browser.post("/organization/create-webhook", {
      organizationId: a.organizationId,
      url: receiver.url,
      events: ["audit.entry", "member.added"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ url: receiver.url, enabled: true, organizationId: a.organizationId });
    expect(created.body.secret).toMatch(/^whsec_/);
    receiver.secret = created.body.secret;

    const other = await b.owner.browser.post("/organization/create-webhook", {
      organizationId: b.organizationId,
      url: receiverB.url,
      events: ["audit.entry"],
    });
    expect(other.status).toBe(200);
    receiverB.secret = other.body.secret;

    expect(
      (await a.owner.browser.post("/organization/update", { organizationId: a.organizationId, data: { name: "A2" } }))
        .status,
    ).toBe(200);
    expect(
      (await b.owner.browser.post("/organization/update", { organizationId: b.organizationId, data: { name: "B2" } }))
        .status,
    ).toBe(200);
    const joined = await joinAs(server, a.organizationId, "member");
    await server.settled();

    // Every request verified with the organization's own secret.
    expect(receiver.received.every((request) => request.status < 300)).toBe(true);
    expect(receiverB.received.every((request) => request.status < 300)).toBe(true);

    const got = receiver.delivered();
    expect(new Set(got.map((d) => d.id)).size).toBe(got.length);
    for (const action of ["organization.webhook_created", "organization.updated"]) {
      const [entry] = await trail(server, a.organizationId, action);
      const copies = got.filter((d) => d.type === "audit.entry" && d.data.id === entry!.id);
      expect(copies, action).toHaveLength(1);
      expect(copies[0]!.data).toMatchObject({ seq: Number(entry!.seq), hash: entry!.hash, action });
    }
    expect(got.filter((d) => d.type === "member.added" && d.data.userId === joined.user.id)).toHaveLength(1);
    // Each organization's webhook got its own organization's events only, in any form.
    expect(got.every((d) => d.data.organizationId === a.organizationId || d.data.id === a.organizationId)).toBe(true);
    const gotB = receiverB.delivered();
    expect(gotB.map((d) => d.data.action)).toEqual(
      expect.arrayContaining(["organization.webhook_created", "organization.updated"]),
    );
    expect(gotB.every((d) => d.data.organizationId === b.organizationId)).toBe(true);

    // The secret is never readable again: not listed, not stored in the clear.
    const listed = await a.owner.browser.get(`/organization/list-webhooks?organizationId=${a.organizationId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    expect(listed.body.webhooks[0]).not.toHaveProperty("secret");
    expect(listed.body.webhooks[0].lastDeliveryError).toBeNull();
    expect(listed.body.webhooks[0].lastDeliveryAt).not.toBeNull();
    const row = await server.auth.database.db
      .selectFrom("organizationWebhook")
      .select("secret")
      .where("id", "=", created.body.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(created.body.secret.slice(6));
    expect(row.secret).not.toContain("whsec_");
  });

  it("rotates, disables and deletes: each audited, each taking effect on the next event", async () => {
    const a = await createOrganization(server);
    const created = await a.owner.browser.post("/organization/create-webhook", {
      url: `${receiver.url}?rotate`,
      events: ["member.added"],
    });
    expect(created.status).toBe(200);
    const webhookId = created.body.id as string;
    const rotated = await a.owner.browser.post("/organization/rotate-webhook-secret", { webhookId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    receiver.secret = rotated.body.secret;
    const first = await joinAs(server, a.organizationId, "member", "first");
    await server.settled();
    expect(receiver.delivered("member.added").filter((d) => d.data.userId === first.user.id)).toHaveLength(1);

    const disabled = await a.owner.browser.post("/organization/update-webhook", { webhookId, enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    const second = await joinAs(server, a.organizationId, "member", "second");
    await server.settled();
    expect(receiver.received.some((r) => r.body.includes(second.user.id))).toBe(false);

    expect((await a.owner.browser.post("/organization/update-webhook", { webhookId, enabled: true })).status).toBe(200);
    expect((await a.owner.browser.post("/organization/delete-webhook", { webhookId })).body).toEqual({ success: true });
    const third = await joinAs(server, a.organizationId, "member", "third");
    await server.settled();
    expect(receiver.received.some((r) => r.body.includes(third.user.id))).toBe(false);
    expect((await a.owner.browser.post("/organization/delete-webhook", { webhookId })).body.code).toBe(
      "WEBHOOK_NOT_FOUND",
    );

    for (const action of [
      "organization.webhook_created",
      "organization.webhook_secret_rotated",
      "organization.webhook_updated",
      "organization.webhook_deleted",
    ]) {
      const entries = await trail(server, a.organizationId, action);
      expect(entries.filter((e) => e.outcome === "success").length, action).toBeGreaterThan(0);
      for (const entry of entries) expect(String(entry.details)).not.toContain("whsec_");
    }
  });

  it("is the owners' alone: an admin or member can neither add, list nor change one", async () => {
    const a = await createOrganization(server);
    const created = await a.owner.browser.post("/organization/create-webhook", {
      url: `${receiver.url}?owners`,
      events: ["audit.entry"],
    });
    const webhookId = created.body.id as string;
    const stranger = await signUp(server);
    for (const role of ["admin", "member"]) {
      const person = await joinAs(server, a.organizationId, role);
      const add = await person.browser.post("/organization/create-webhook", {
        url: `${receiver.url}?${role}`,
        events: ["audit.entry"],
      });
      expect(add.status).toBe(403);
      expect(add.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS");
      expect((await person.browser.get("/organization/list-webhooks")).body.code).toBe(
        "YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS",
      );
      for (const path of ["/organization/rotate-webhook-secret", "/organization/delete-webhook"]) {
        expect((await person.browser.post(path, { webhookId })).status).toBe(403);
      }
    }
    // Someone outside: the webhook does not exist for them.
    const outside = await stranger.browser.post("/organization/rotate-webhook-secret", { webhookId });
    expect(outside.status).toBe(404);
    expect(outside.body.code).toBe("WEBHOOK_NOT_FOUND");
    const add = await stranger.browser.post("/organization/create-webhook", {
      organizationId: a.organizationId,
      url: `${receiver.url}?stranger`,
      events: ["audit.entry"],
    });
    expect(add.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    const refusals = await trail(server, a.organizationId, "organization.webhook_created");
    expect(refusals.filter((entry) => entry.outcome === "failure").length).toBeGreaterThanOrEqual(2);
  });
});

describe("a test delivery", () => {
  it("sends the owner's webhook one signed webhook.test, unaudited and rate-limited; others are refused", async () => {
    const own = await WebhookReceiver.start();
    // Rate limits on, as deployed (the other servers here leave them off).
    const paced = await startTestServer({
      options: {
        organization: ORGANIZATION,
        audit: { enabled: true },
        organizationWebhooks: { enabled: true, allowPrivateUrls: true },
        rateLimit: { enabled: true },
      },
    });
    try {
      const a = await createOrganization(paced);
      const created = await a.owner.browser.post("/organization/create-webhook", {
        organizationId: a.organizationId,
        url: own.url,
        // An event nothing here causes: the test delivery is all it gets, whatever it subscribes to.
        events: ["invitation.canceled"],
      });
      expect(created.status).toBe(200);
      own.secret = created.body.secret;
      const webhookId: string = created.body.id;
      const admin = await joinAs(paced, a.organizationId, "admin");
      const stranger = await createOrganization(paced);
      const head = async () => {
        await paced.sealAudit();
        return Number(
          (await paced.auth.database.db.selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow()).headSeq,
        );
      };

      const before = await head();
      const sent = await a.owner.browser.post("/organization/test-webhook", { webhookId });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.deliveryId).toMatch(/^msg_/);
      await paced.settled();
      // Not a change: no audit entry.
      expect(await head()).toBe(before);
      expect(own.delivered()).toEqual([
        {
          id: sent.body.deliveryId,
          type: "webhook.test",
          timestamp: expect.any(String),
          data: { webhookId, organizationId: a.organizationId },
        },
      ]);
      const listed = await a.owner.browser.get(`/organization/list-webhooks?organizationId=${a.organizationId}`);
      expect(listed.body.webhooks[0]).toMatchObject({ lastDeliveryAt: expect.any(String), lastDeliveryError: null });

      const byAdmin = await admin.browser.post("/organization/test-webhook", { webhookId });
      expect([byAdmin.status, byAdmin.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS"]);
      const byStranger = await stranger.owner.browser.post("/organization/test-webhook", { webhookId });
      expect([byStranger.status, byStranger.body.code]).toEqual([404, "WEBHOOK_NOT_FOUND"]);
      // Three a minute from one address, as for mail.
      const flooded = await a.owner.browser.post("/organization/test-webhook", { webhookId });
      expect([flooded.status, flooded.body.code]).toEqual([429, "TOO_MANY_REQUESTS"]);

      paced.clock.advance(61);
      await a.owner.browser.post("/organization/update-webhook", { webhookId, enabled: false });
      const disabled = await a.owner.browser.post("/organization/test-webhook", { webhookId });
      expect([disabled.status, disabled.body.code]).toEqual([400, "WEBHOOK_DISABLED"]);
      await paced.settled();
      expect(own.received).toHaveLength(1);
      expect(paced.loggedErrors).toEqual([]);
    } finally {
      await paced.close();
      await own.close();
    }
  });
});

describe("receivers on private addresses", () => {
  it("are refused at creation, and plain http", async () => {
    const a = await createOrganization(strict);
    for (const url of [
      "https://127.0.0.1/hooks",
      "https://localhost:8443/hooks",
      "https://10.0.0.7/hooks",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hooks",
      "https://[::ffff:192.168.1.1]/hooks",
      "https://2130706433/hooks",
      "http://93.184.216.34/hooks",
      receiver.url,
    ]) {
      const res = await a.owner.browser.post("/organization/create-webhook", { url, events: ["member.added"] });
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe("INVALID_WEBHOOK_URL");
    }
  });

  it("are refused at delivery, where the address is dialled (a name that turned private)", async () => {
    const a = await createOrganization(strict);
    const created = await a.owner.browser.post("/organization/create-webhook", {
      url: "https://93.184.216.34/hooks",
      events: ["member.added"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // As if its name now resolved to loopback (DNS rebinding): the row holds a name for a private address.
    const port = new URL(receiver.url).port;
    await strict.auth.database.db
      .updateTable("organizationWebhook")
      .set({ url: `http://localhost:${port}/hooks` })
      .where("id", "=", created.body.id)
      .execute();
    const joined = await joinAs(strict, a.organizationId, "member");
    await strict.settled();
    expect(receiver.received.some((request) => request.body.includes(joined.user.id))).toBe(false);
    const [delivery] = await strict.auth.database.db
      .selectFrom("webhookDelivery")
      .select(["lastError", "failedAt", "payload"])
      .where("endpointId", "=", created.body.id)
      .execute();
    expect(delivery!.payload).toContain(joined.user.id);
    expect(delivery!.lastError).toMatch(/non-public address/);
    const listed = await a.owner.browser.get("/organization/list-webhooks");
    expect(listed.body.webhooks[0].lastDeliveryError).toMatch(/non-public address/);
  });
});

describe("bad input", () => {
  it("answers 4xx with {code, message}, never 500", async () => {
    const a = await createOrganization(strict);
    const bodies: unknown[] = [
      {},
      { url: "https://93.184.216.34/a" },
      { url: "https://93.184.216.34/a", events: [] },
      { url: "https://93.184.216.34/a", events: ["user.created"] },
      { url: "https://93.184.216.34/a", events: ["member.added", "member.added"] },
      { url: "https://93.184.216.34/a", events: "member.added" },
      { url: 42, events: ["member.added"] },
      { url: "not a url", events: ["member.added"] },
      { url: `https://93.184.216.34/${"a".repeat(2100)}`, events: ["member.added"] },
      { url: "https://user:pw@93.184.216.34/a", events: ["member.added"] },
      { url: "ftp://93.184.216.34/a", events: ["member.added"] },
      { url: "https://93.184.216.34/a", events: ["member.added"], organizationId: "" },
      { url: "https://93.184.216.34/a", events: ["member.added"], organizationId: "no-such-org" },
    ];
    for (const body of bodies) {
      const res = await a.owner.browser.post("/organization/create-webhook", body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBeLessThan(500);
      expect(res.body).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
    for (const [path, body] of [
      ["/organization/update-webhook", { webhookId: "nope", enabled: true }],
      ["/organization/update-webhook", { webhookId: 5 }],
      ["/organization/update-webhook", { webhookId: "x".repeat(300) }],
      ["/organization/rotate-webhook-secret", {}],
      ["/organization/delete-webhook", { webhookId: null }],
    ] as const) {
      const res = await a.owner.browser.post(path, body);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it("bounds the webhooks of one organization, and one per URL", async () => {
    const a = await createOrganization(strict);
    const add = (n: number) =>
      a.owner.browser.post("/organization/create-webhook", {
        url: `https://93.184.216.34/hook-${n}`,
        events: ["member.removed"],
      });
    for (const n of [1, 2, 3]) expect((await add(n)).status).toBe(200);
    const fourth = await add(4);
    expect(fourth.status).toBe(403);
    expect(fourth.body.code).toBe("TOO_MANY_WEBHOOKS");
    const b = await createOrganization(strict);
    const url = "https://93.184.216.34/same";
    expect(
      (await b.owner.browser.post("/organization/create-webhook", { url, events: ["member.removed"] })).status,
    ).toBe(200);
    const again = await b.owner.browser.post("/organization/create-webhook", { url, events: ["member.removed"] });
    expect(again.body.code).toBe("WEBHOOK_URL_ALREADY_EXISTS");
  });
});
