import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { WebhookReceiver } from "./helpers/webhook-receiver.js";

/**
 * Issue 34: an organization's audit trail streamed to its own system through a webhook subscription
 * scoped to it (`webhooks[].organizationId`), delivered by the real outbox to a real receiver.
 */

let first: TestServer;
let second: TestServer;
let ours: WebhookReceiver;
let everything: WebhookReceiver;
let orgA: Awaited<ReturnType<typeof createOrganization>>;
let orgB: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  [ours, everything] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
  // The organizations exist before the instance that streams them starts (their ids are in its options).
  first = await startTestServer({ shareable: true, options: { audit: { enabled: true } } });
  orgA = await createOrganization(first);
  orgB = await createOrganization(first);
  second = await startTestServer({
    shareDatabaseWith: first,
    options: {
      audit: { enabled: true },
      webhooks: [
        { url: ours.url, secret: ours.secret, events: ["audit.entry"], organizationId: orgA.organizationId },
        { url: everything.url, secret: everything.secret, events: ["audit.entry"] },
      ],
    },
    extra: { webhookDelivery: { retryBaseMs: 20 } },
  });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await Promise.all([ours?.close(), everything?.close()]);
});
afterEach(() => {
  expect(first.loggedErrors).toEqual([]);
  expect(second.loggedErrors).toEqual([]);
});

const onSecond = (browser: { copyTo(origin?: string): any }) => browser.copyTo(second.origin);

describe("audit entries to an organization's webhook", () => {
  it("reach its subscription signed, exactly once, as the trail holds them; never another organization's", async () => {
    const ownerA = onSecond(orgA.owner.browser);
    const ownerB = onSecond(orgB.owner.browser);
    const renamed = await ownerA.post("/organization/update", {
      organizationId: orgA.organizationId,
      data: { name: "Streamed A" },
    });
    expect(renamed.status).toBe(200);
    expect(
      (await ownerB.post("/organization/update", { organizationId: orgB.organizationId, data: { name: "Private B" } }))
        .status,
    ).toBe(200);
    // A refused change of A is an entry of A's trail too.
    const refused = await ownerB.post("/organization/update", {
      organizationId: orgA.organizationId,
      data: { name: "x" },
    });
    expect(refused.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    await second.settled();

    const trail = (organizationId: string) =>
      second.auth.database.db
        .selectFrom("auditTrail")
        .select(["id", "seq", "hash", "action", "outcome"])
        .where("organizationId", "=", organizationId)
        .where("action", "=", "organization.updated")
        .orderBy("seq")
        .execute();
    const entriesA = await trail(orgA.organizationId);
    const entriesB = await trail(orgB.organizationId);
    expect(entriesA.map((entry) => entry.outcome)).toEqual(["success", "failure"]);
    expect(entriesB).toHaveLength(1);

    // Every request verified (the receiver checks the Standard Webhooks signature), none refused.
    expect(ours.received.every((request) => request.status < 300)).toBe(true);
    const got = ours.delivered("audit.entry");
    for (const entry of entriesA) {
      const copies = got.filter((delivery) => delivery.data.id === entry.id);
      expect(copies).toHaveLength(1);
      expect(copies[0]!.data).toMatchObject({
        seq: Number(entry.seq),
        hash: entry.hash,
        action: "organization.updated",
        organizationId: orgA.organizationId,
      });
    }
    // Only A's entries: B's rename, and entries of no organization (sign-ins), never reach it.
    expect(got.every((delivery) => delivery.data.organizationId === orgA.organizationId)).toBe(true);
    expect(new Set(got.map((delivery) => delivery.id)).size).toBe(got.length);

    // A subscription of no organization is the whole trail's (an operator's SIEM).
    const all = everything.delivered("audit.entry").map((delivery) => delivery.data.id);
    for (const entry of [...entriesA, ...entriesB]) expect(all.filter((id) => id === entry.id)).toHaveLength(1);
  });

  it("refuses an organizationId on a subscription to events of no organization", async () => {
    await expect(
      startTestServer({
        options: {
          webhooks: [{ url: ours.url, secret: ours.secret, events: ["user.created"], organizationId: "org" }],
        },
      }),
    ).rejects.toThrow(/webhooks\.0/);
  });
});
