import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OnLinkAccount } from "../src/server/context.js";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { providerOptions, socialFlow } from "./helpers/social.js";

let oidc: TestOidcProvider;
let server: TestServer;
const links: Parameters<OnLinkAccount>[0][] = [];

beforeAll(async () => {
  oidc = await startOidcProvider();
  server = await startTestServer({
    options: {
      socialProviders: { oidc: providerOptions(oidc), google: providerOptions(oidc) },
      organization: { teams: { enabled: true } },
    },
    extra: { onLinkAccount: (link: Parameters<OnLinkAccount>[0]) => void links.push(link) },
  });
  await oidc.configure([`${server.origin}/api/auth/callback/oidc`]);
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;
const userExists = async (id: string) =>
  (await db().selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

async function anonymousBrowser() {
  const browser = server.browser();
  const res = await browser.post("/sign-in/anonymous", {});
  expect(res.status).toBe(200);
  return { browser, user: res.body.user, token: res.body.token as string };
}

describe("POST /sign-in/anonymous", () => {
  it("creates an anonymous user with a placeholder email, a session and no account row", async () => {
    const { browser, user, token } = await anonymousBrowser();
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(user).toMatchObject({ name: "Anonymous", isAnonymous: true, emailVerified: false, image: null });
    expect(user.email).toBe(`${user.id.toLowerCase()}@anonymous.placeholder.invalid`);
    expect((await browser.get("/get-session")).body.user).toMatchObject({ id: user.id, isAnonymous: true });
    expect(await db().selectFrom("account").select("id").where("userId", "=", user.id).execute()).toHaveLength(0);
  });

  it("refuses a second anonymous sign-in from an anonymous session", async () => {
    const { browser } = await anonymousBrowser();
    const res = await browser.post("/sign-in/anonymous", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY",
      message: "Anonymous users cannot sign in again anonymously",
    });
  });
});

describe("an anonymous browser becoming a real user", () => {
  it("sign-up by email: onLinkAccount gets both users, then the anonymous user is deleted", async () => {
    const { browser, user: anonymous } = await anonymousBrowser();
    const email = `real-${Date.now()}@example.com`;
    const res = await browser.post("/sign-up/email", { name: "Real", email, password: "sturdy-pass-123" });
    expect(res.status).toBe(200);
    const link = links.find((l) => l.anonymousUser.user.id === anonymous.id);
    expect(link?.newUser.user.email).toBe(email);
    expect(link?.newUser.session.token).toBe(res.body.token);
    expect(await userExists(anonymous.id)).toBe(false);
    expect((await browser.get("/get-session")).body.user.email).toBe(email);
  });

  it("sign-in by email deletes the anonymous user", async () => {
    const real = await signUp(server);
    const { browser, user: anonymous } = await anonymousBrowser();
    await browser.post("/sign-in/email", { email: real.email, password: real.password });
    expect(await userExists(anonymous.id)).toBe(false);
    expect((await browser.get("/get-session")).body.user.id).toBe(real.user.id);
  });

  it("a social sign-in callback deletes the anonymous user", async () => {
    const { browser, user: anonymous } = await anonymousBrowser();
    const provider = oidc.addUser();
    const { callback } = await socialFlow(browser, oidc, provider.sub, {
      body: { provider: "oidc", callbackURL: "/" },
    });
    expect(callback.status).toBe(302);
    expect(await userExists(anonymous.id)).toBe(false);
    expect((await browser.get("/get-session")).body.user.email).toBe(provider.email);
  });

  it("One Tap deletes the anonymous user", async () => {
    const { browser, user: anonymous } = await anonymousBrowser();
    const provider = oidc.addUser();
    const res = await browser.post("/one-tap/callback", { idToken: await oidc.idToken(provider.sub) });
    expect(res.status).toBe(200);
    expect(await userExists(anonymous.id)).toBe(false);
  });

  it("keeps the guest's work: organizations, teams and memberships move to the new user, none is orphaned", async () => {
    const { browser, user: anonymous } = await anonymousBrowser();
    const created = await browser.post("/organization/create", { name: "Guest work", slug: `guest-${Date.now()}` });
    expect(created.status).toBe(200);
    const organizationId = created.body.id as string;
    const team = await browser.post("/organization/create-team", { name: "Planning", organizationId });
    expect(team.status).toBe(200);
    await browser.post("/organization/add-team-member", { teamId: team.body.id, userId: anonymous.id, organizationId });
    // Someone who joined by the guest's invitation (guests cannot invite over HTTP; the server API can).
    const friend = await signUp(server);
    await db()
      .insertInto("member")
      .values({
        id: `friend-${Date.now()}`,
        organizationId,
        userId: friend.user.id,
        role: "member",
        teamId: null,
        createdAt: new Date(),
        invitedBy: anonymous.id,
      })
      .execute();

    const email = `kept-${Date.now()}@example.com`;
    const res = await browser.post("/sign-up/email", { name: "Kept", email, password: "sturdy-pass-123" });
    expect(res.status).toBe(200);
    const newUserId = res.body.user.id as string;
    expect(await userExists(anonymous.id)).toBe(false);

    const members = await db()
      .selectFrom("member")
      .selectAll()
      .where("organizationId", "=", organizationId)
      .orderBy("role", "desc")
      .execute();
    // The friend was invited by the guest, who is now the new user.
    expect(members.map((m) => [m.userId, m.role, m.invitedBy])).toEqual([
      [newUserId, "owner", null],
      [friend.user.id, "member", newUserId],
    ]);
    const teamMembers = await db()
      .selectFrom("teamMember")
      .select("userId")
      .where("teamId", "=", team.body.id)
      .execute();
    expect(teamMembers.map((m) => m.userId)).toEqual([newUserId]);
    // The new user sees and runs the organization they made as a guest.
    const list = await browser.get("/organization/list");
    expect(list.body.map((o: { id: string }) => o.id)).toContain(organizationId);
    const orphans = await db()
      .selectFrom("organization")
      .select("id")
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("member").select("id").whereRef("member.organizationId", "=", "organization.id"))),
      )
      .execute();
    expect(orphans).toEqual([]);
  });

  it("merges roles when the account already belongs to the guest's organization", async () => {
    const real = await signUp(server);
    const { browser, user: anonymous } = await anonymousBrowser();
    const created = await browser.post("/organization/create", { name: "Shared", slug: `shared-${Date.now()}` });
    const organizationId = created.body.id as string;
    await server.auth.api.addMember({ body: { userId: real.user.id, organizationId, role: "member" } });
    await browser.post("/sign-in/email", { email: real.email, password: real.password });
    expect(await userExists(anonymous.id)).toBe(false);
    const members = await db().selectFrom("member").selectAll().where("organizationId", "=", organizationId).execute();
    expect(members.map((m) => [m.userId, m.role])).toEqual([[real.user.id, "member,owner"]]);
  });

  it("a failed sign-in keeps the anonymous user", async () => {
    const real = await signUp(server);
    const { browser, user: anonymous } = await anonymousBrowser();
    const res = await browser.post("/sign-in/email", { email: real.email, password: "wrong-password" });
    expect(res.status).toBe(401);
    expect(await userExists(anonymous.id)).toBe(true);
  });
});

describe("POST /delete-anonymous-user", () => {
  it("takes the organizations only the guest belonged to with it, and leaves shared ones to their owner", async () => {
    const { browser, user: anonymous } = await anonymousBrowser();
    const alone = (await browser.post("/organization/create", { name: "Alone", slug: `alone-${Date.now()}` })).body;
    const shared = (await browser.post("/organization/create", { name: "Shared", slug: `shared2-${Date.now()}` })).body;
    const other = await signUp(server);
    await server.auth.api.addMember({ body: { userId: other.user.id, organizationId: shared.id, role: "member" } });
    // The only owner of an organization with other members stays until someone else owns it.
    const refused = await browser.post("/delete-anonymous-user", {});
    expect([refused.status, refused.body.code]).toEqual([400, "USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION"]);
    expect(await userExists(anonymous.id)).toBe(true);
    await browser.post("/organization/transfer-ownership", { organizationId: shared.id, userId: other.user.id });
    expect((await browser.post("/delete-anonymous-user", {})).status).toBe(200);
    expect(await userExists(anonymous.id)).toBe(false);
    const left = await db().selectFrom("organization").select("id").where("id", "in", [alone.id, shared.id]).execute();
    expect(left.map((o) => o.id)).toEqual([shared.id]);
  });

  it("deletes the anonymous user and clears the cookies", async () => {
    const { browser, user } = await anonymousBrowser();
    const res = await browser.post("/delete-anonymous-user", {});
    expect(res.body).toEqual({ success: true });
    expect(res.setCookies.some((l) => /^gatehouse\.session_token=;.*Max-Age=0/i.test(l))).toBe(true);
    expect(await userExists(user.id)).toBe(false);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("refuses a real user with 403 and a caller without a session with 401", async () => {
    const real = await signUp(server);
    const res = await real.browser.post("/delete-anonymous-user", {});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("USER_IS_NOT_ANONYMOUS");
    expect(await userExists(real.user.id)).toBe(true);
    expect((await server.browser().post("/delete-anonymous-user", {})).status).toBe(401);
  });
});

describe("anonymous.emailDomainName", () => {
  it("puts anonymous users on the configured domain", async () => {
    const other = await startTestServer({ options: { anonymous: { emailDomainName: "guests.example.com" } } });
    try {
      const res = await other.browser().post("/sign-in/anonymous", {});
      expect(res.body.user.email).toBe(`temp-${res.body.user.id.toLowerCase()}@guests.example.com`);
      expect(other.loggedErrors).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
