import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs, uniqueSlug } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Concurrent requests cannot break the rules: constraints and the organization lock decide. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { organization: { membershipLimit: 5 } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;
const memberCount = async (organizationId: string) =>
  (await db().selectFrom("member").select("id").where("organizationId", "=", organizationId).execute()).length;

describe("races", () => {
  it("20 parallel accepts of one invitation create one member", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const email = `race-accept-${Date.now()}@example.com`;
    const recipient = await signUp(server, { email });
    const inv = (await owner.browser.post("/organization/invite-member", { email, role: "member" })).body;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.code === "INVITATION_NOT_FOUND")).toHaveLength(19);
    const rows = await db()
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("userId", "=", recipient.user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("two owners leaving at once leave one owner", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const second = await joinAs(server, organizationId, "owner");
    await owner.browser.post("/organization/set-active", { organizationId });
    const results = await Promise.all([
      owner.browser.post("/organization/leave", { organizationId }),
      second.browser.post("/organization/leave", { organizationId }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe(
      "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
    );
    const owners = await db()
      .selectFrom("member")
      .select("role")
      .where("organizationId", "=", organizationId)
      .execute();
    expect(owners).toEqual([{ role: "owner" }]);
  });

  it("an owner removing the other owner while that one leaves still leaves one owner", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const second = await joinAs(server, organizationId, "owner");
    const results = await Promise.all([
      owner.browser.post("/organization/remove-member", { organizationId, memberIdOrEmail: second.memberId }),
      owner.browser.post("/organization/leave", { organizationId }),
      second.browser.post("/organization/leave", { organizationId }),
    ]);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(await memberCount(organizationId)).toBe(1);
  });

  it("parallel creates with one slug create one organization", async () => {
    const slug = uniqueSlug("race");
    const people = await Promise.all(Array.from({ length: 8 }, () => signUp(server)));
    const results = await Promise.all(
      people.map((p) => p.browser.post("/organization/create", { name: "Race", slug })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.code === "ORGANIZATION_ALREADY_EXISTS")).toHaveLength(7);
    const orgs = await db().selectFrom("organization").select("id").where("slug", "=", slug).execute();
    expect(orgs).toHaveLength(1);
    expect(await memberCount(orgs[0]!.id)).toBe(1);
  });

  it("parallel joins never exceed membershipLimit", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const people = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signUp(server, { email: `join-${Date.now()}-${i}@example.com` })),
    );
    const invitations: { id: string }[] = [];
    for (const p of people) {
      invitations.push(
        (await owner.browser.post("/organization/invite-member", { email: p.email, role: "member" })).body,
      );
    }
    const results = await Promise.all(
      people.map((p, i) => p.browser.post("/organization/accept-invitation", { invitationId: invitations[i]!.id })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    expect(
      results.filter((r) => r.status === 403 && r.body.code === "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED"),
    ).toHaveLength(6);
    expect(await memberCount(organizationId)).toBe(5);
    // A refused accept leaves its invitation pending (the transaction rolled back).
    const pending = await db()
      .selectFrom("invitation")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("status", "=", "pending")
      .execute();
    expect(pending).toHaveLength(6);
  });

  it("parallel invites of one address create one pending invitation", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const email = `race-invite-${Date.now()}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => owner.browser.post("/organization/invite-member", { email, role: "member" })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body?.code === "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION")).toHaveLength(9);
    const rows = await db()
      .selectFrom("invitation")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("email", "=", email)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
