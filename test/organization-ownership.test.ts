import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { PARALLEL_REQUESTS } from "./helpers/burst.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { WebhookReceiver } from "./helpers/webhook-receiver.js";

/** An organization always has an owner: account deletion, admin removal and ownership transfer. */
let server: TestServer;
let receiver: WebhookReceiver;
let admin: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  server = await startTestServer({
    options: {
      user: { deleteUser: { enabled: true } },
      webhooks: [
        {
          url: receiver.url,
          secret: receiver.secret,
          events: ["member.updated", "organization.deleted", "user.deleted"],
        },
      ],
    },
  });
  admin = await signUp(server, { name: "Admin" });
  await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;
const ONLY_OWNER = "USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION";

/** The organization's members as [userId, role], and how many of them hold the owner role. */
async function roles(organizationId: string) {
  const rows = await db()
    .selectFrom("member")
    .select(["userId", "role"])
    .where("organizationId", "=", organizationId)
    .execute();
  const owners = rows.filter((r) => r.role.split(",").includes("owner")).length;
  return { rows, owners };
}

const userExists = async (userId: string) =>
  (await db().selectFrom("user").select("id").where("id", "=", userId).execute()).length === 1;
const organizationExists = async (organizationId: string) =>
  (await db().selectFrom("organization").select("id").where("id", "=", organizationId).execute()).length === 1;

describe("deleting an organization's owner", () => {
  it("refuses the only owner of an organization with other members until the ownership is transferred", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");

    const refused = await owner.browser.post("/delete-user", {});
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: ONLY_OWNER, organizationIds: [organizationId] });
    expect(refused.body.message).toMatch(/transfer the ownership .* or delete the organization/);
    expect(await userExists(owner.user.id)).toBe(true);
    expect((await roles(organizationId)).owners).toBe(1);

    const moved = await owner.browser.post("/organization/transfer-ownership", {
      organizationId,
      memberId: member.memberId,
    });
    expect(moved.status).toBe(200);
    expect((await owner.browser.post("/delete-user", {})).status).toBe(200);
    expect(await userExists(owner.user.id)).toBe(false);
    expect((await roles(organizationId)).rows).toEqual([{ userId: member.user.id, role: "owner" }]);
  });

  it("deletes an organization the user is the only member of with the account", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const res = await owner.browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(await organizationExists(organizationId)).toBe(false);
    await server.settled();
    expect(receiver.delivered("organization.deleted").map((e) => e.data.id)).toContain(organizationId);
  });

  it("lets one of several owners go: the organization keeps the other", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const second = await joinAs(server, organizationId, "owner");
    await joinAs(server, organizationId, "member");
    expect((await owner.browser.post("/delete-user", {})).status).toBe(200);
    const after = await roles(organizationId);
    expect(after.owners).toBe(1);
    expect(after.rows.find((r) => r.role === "owner")?.userId).toBe(second.user.id);
  });

  it("refuses an admin's removal of the only owner the same way (no force); after a transfer it goes", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "admin");
    const solo = await createOrganization(server, { owner });

    const refused = await admin.browser.post("/admin/remove-user", { userId: owner.user.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: ONLY_OWNER, organizationIds: [organizationId] });
    expect(await userExists(owner.user.id)).toBe(true);
    expect(await organizationExists(solo.organizationId)).toBe(true);

    await owner.browser.post("/organization/transfer-ownership", { organizationId, userId: member.user.id });
    const removed = await admin.browser.post("/admin/remove-user", { userId: owner.user.id });
    expect(removed.status).toBe(200);
    expect(await organizationExists(solo.organizationId)).toBe(false);
    expect((await roles(organizationId)).rows).toEqual([{ userId: member.user.id, role: "owner" }]);
    const log = await admin.browser.get(`/admin/list-audit-log?targetUserId=${owner.user.id}`);
    expect(log.body.entries[0]).toMatchObject({
      action: "user.remove",
      details: { deletedOrganizationIds: [solo.organizationId] },
    });
  });
});

describe("POST /organization/transfer-ownership", () => {
  it("makes the member the owner and the caller an admin, in one step with one owner", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    const bystander = await joinAs(server, organizationId, "admin");

    const res = await owner.browser.post("/organization/transfer-ownership", { memberId: member.memberId });
    expect(res.status).toBe(200);
    expect(res.body.owner).toMatchObject({ id: member.memberId, userId: member.user.id, role: "owner" });
    expect(res.body.previousOwner).toMatchObject({ userId: owner.user.id, role: "admin", organizationId });
    const after = await roles(organizationId);
    expect(after.owners).toBe(1);
    expect(after.rows.find((r) => r.userId === bystander.user.id)?.role).toBe("admin");

    await server.settled();
    const updates = receiver.delivered("member.updated").filter((e) => e.data.organizationId === organizationId);
    // Delivery order is not guaranteed: the two rows, whichever came first.
    expect(updates.map((e) => `${e.data.userId}:${e.data.role}`).sort()).toEqual(
      [`${member.user.id}:owner`, `${owner.user.id}:admin`].sort(),
    );

    // The former owner is an admin now: it cannot take the ownership back, nor leave the new owner out.
    const back = await owner.browser.post("/organization/transfer-ownership", { userId: owner.user.id });
    expect([back.status, back.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_TRANSFER_OWNERSHIP"]);
    const leave = await member.browser.post("/organization/leave", { organizationId });
    expect([leave.status, leave.body.code]).toEqual([400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER"]);
  });

  it("refuses admins, members and strangers", async () => {
    const { organizationId } = await createOrganization(server);
    const adminMember = await joinAs(server, organizationId, "admin");
    const member = await joinAs(server, organizationId, "member");
    const stranger = await signUp(server);
    for (const caller of [adminMember, member]) {
      const res = await caller.browser.post("/organization/transfer-ownership", { memberId: caller.memberId });
      expect([res.status, res.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_TRANSFER_OWNERSHIP"]);
    }
    const outside = await stranger.browser.post("/organization/transfer-ownership", {
      organizationId,
      memberId: member.memberId,
    });
    expect([outside.status, outside.body.code]).toEqual([400, "MEMBER_NOT_FOUND"]);
    const signedOut = await server.browser().post("/organization/transfer-ownership", { organizationId, userId: "x" });
    expect(signedOut.status).toBe(401);
    expect((await roles(organizationId)).owners).toBe(1);
  });

  it("answers bad input with a 4xx and changes nothing", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const other = await createOrganization(server);
    const foreign = await joinAs(server, other.organizationId, "member");
    const ownRow = await db()
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("userId", "=", owner.user.id)
      .executeTakeFirstOrThrow();
    const cases: [object, number, string][] = [
      [{ memberId: "no-such-member" }, 400, "MEMBER_NOT_FOUND"],
      [{ userId: "no-such-user" }, 400, "MEMBER_NOT_FOUND"],
      [{ memberId: foreign.memberId }, 400, "MEMBER_NOT_FOUND"],
      [{ userId: foreign.user.id }, 400, "MEMBER_NOT_FOUND"],
      [{ memberId: ownRow.id }, 400, "YOU_CANNOT_TRANSFER_OWNERSHIP_TO_YOURSELF"],
      [{ userId: owner.user.id }, 400, "YOU_CANNOT_TRANSFER_OWNERSHIP_TO_YOURSELF"],
      [{}, 400, "VALIDATION_ERROR"],
      [{ memberId: ownRow.id, userId: owner.user.id }, 400, "VALIDATION_ERROR"],
      [{ memberId: 42 }, 400, "VALIDATION_ERROR"],
    ];
    for (const [body, status, code] of cases) {
      const res = await owner.browser.post("/organization/transfer-ownership", { organizationId, ...body });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    const noActive = await foreign.browser.post("/organization/set-active", { organizationId: null });
    expect(noActive.status).toBe(200);
    const missing = await foreign.browser.post("/organization/transfer-ownership", { userId: owner.user.id });
    expect([missing.status, missing.body.code]).toEqual([400, "NO_ACTIVE_ORGANIZATION"]);
    expect((await roles(organizationId)).rows).toEqual([{ userId: owner.user.id, role: "owner" }]);
  });

  it("update-member-role: an admin can neither grant the owner role nor touch the owner", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const adminMember = await joinAs(server, organizationId, "admin");
    const member = await joinAs(server, organizationId, "member");
    const ownRow = (await owner.browser.get(`/organization/get-active-member?organizationId=${organizationId}`)).body;
    for (const [memberId, role] of [
      [member.memberId, "owner"],
      [adminMember.memberId, "owner"],
      [member.memberId, ["admin", "owner"]],
      [ownRow.id, "member"],
    ] as const) {
      const res = await adminMember.browser.post("/organization/update-member-role", {
        organizationId,
        memberId,
        role,
      });
      expect([res.status, res.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER"]);
    }
    expect((await roles(organizationId)).owners).toBe(1);
  });
});

describe("ownership under concurrency", () => {
  it(`${PARALLEL_REQUESTS} parallel transfers and role changes never leave the organization with 0 or 2 owners`, async () => {
    const { owner, organizationId } = await createOrganization(server);
    const people: { browser: TestBrowser; userId: string; memberId: string }[] = [];
    const ownRow = (await owner.browser.get(`/organization/get-active-member?organizationId=${organizationId}`)).body;
    people.push({ browser: owner.browser, userId: owner.user.id, memberId: ownRow.id });
    for (const name of ["B", "C", "D"]) {
      const joined = await joinAs(server, organizationId, "admin", name);
      people.push({ browser: joined.browser, userId: joined.user.id, memberId: joined.memberId });
    }
    const pick = (i: number, skip: number) => people[(skip + 1 + (i % (people.length - 1))) % people.length]!;
    const requests = Array.from({ length: PARALLEL_REQUESTS }, (_, i) => {
      const caller = people[i % people.length]!;
      const other = pick(i, i % people.length);
      switch (i % 5) {
        case 0:
        case 1:
          return caller.browser.post("/organization/transfer-ownership", { organizationId, memberId: other.memberId });
        case 2: // gives up their own role (refused for the only owner)
          return caller.browser.post("/organization/update-member-role", {
            organizationId,
            memberId: caller.memberId,
            role: "admin",
          });
        default: // re-roles another member (refused when that member is the owner)
          return caller.browser.post("/organization/update-member-role", {
            organizationId,
            memberId: other.memberId,
            role: i % 5 === 3 ? "admin" : "member",
          });
      }
    });
    // Meanwhile every committed state is read: each must have exactly one owner.
    let running = true;
    const seen = new Set<number>();
    const watcher = (async () => {
      while (running) {
        seen.add((await roles(organizationId)).owners);
        // SQLite answers synchronously: give the requests' I/O its turn.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const results = await Promise.all(requests);
    running = false;
    await watcher;
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r, i) => i % 5 < 2 && r.status === 200).length).toBeGreaterThan(0);
    expect((await roles(organizationId)).owners).toBe(1);
    expect([...seen]).toEqual([1]);
  });

  it(`${PARALLEL_REQUESTS} parallel account deletions and leaves by owners leave exactly one owner`, async () => {
    const { owner, organizationId } = await createOrganization(server);
    await joinAs(server, organizationId, "member");
    const owners = [{ browser: owner.browser, userId: owner.user.id }];
    for (let i = 1; i < PARALLEL_REQUESTS / 2; i++) {
      const joined = await joinAs(server, organizationId, "owner", `Owner ${i}`);
      owners.push({ browser: joined.browser, userId: joined.user.id });
    }
    const results = await Promise.all(
      owners.flatMap(({ browser }) => [
        browser.post("/delete-user", {}),
        browser.post("/organization/leave", { organizationId }),
      ]),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    const after = await roles(organizationId);
    expect(after.owners).toBe(1);
    expect(after.rows).toHaveLength(2);
    const refusals = new Set(results.filter((r) => r.status === 400).map((r) => r.body.code));
    expect(
      [...refusals].every((code) =>
        [ONLY_OWNER, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", "MEMBER_NOT_FOUND"].includes(code),
      ),
    ).toBe(true);
  });
});
