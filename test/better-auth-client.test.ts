import { createAuthClient } from "better-auth/client";
import { organizationClient } from "better-auth/client/plugins";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Apps written against the better-auth browser client keep working: its own client (and its
 * organization plugin), unchanged, drives the real Gatehouse server.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

function betterAuthClient() {
  const jar = cookieFetch();
  const client = createAuthClient({
    baseURL: server.origin,
    plugins: [organizationClient()],
    // Node sends no Origin of its own; a page on the app's origin would.
    fetchOptions: { customFetchImpl: jar, headers: { origin: server.origin } },
  });
  return { client, jar };
}

describe("better-auth/client against Gatehouse", () => {
  it("signs up, reads the session, signs out", async () => {
    const { client, jar } = betterAuthClient();
    const email = `compat-${Date.now()}@example.com`;
    const signUp = await client.signUp.email({ name: "Compat", email, password: "password123" });
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user.email).toBe(email);
    expect(signUp.data?.token).toEqual(expect.any(String));
    expect(jar.jar.has("gatehouse.session_token")).toBe(true);

    const session = await client.getSession();
    expect(session.error).toBeNull();
    expect(session.data?.user.email).toBe(email);
    expect(session.data?.session.userId).toBe(signUp.data?.user.id);

    const signOut = await client.signOut();
    expect(signOut.data).toEqual({ success: true });
    expect((await client.getSession()).data).toBeNull();
  });

  it("signs in with email and password and reports a wrong password the way the client expects", async () => {
    const { client } = betterAuthClient();
    const email = `compat-in-${Date.now()}@example.com`;
    await client.signUp.email({ name: "In", email, password: "password123" });
    await client.signOut();

    const wrong = await client.signIn.email({ email, password: "not the password" });
    expect(wrong.data).toBeNull();
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });

    const signIn = await client.signIn.email({ email, password: "password123" });
    expect(signIn.error).toBeNull();
    expect(signIn.data).toMatchObject({ redirect: false, user: { email } });
    expect((await client.getSession()).data?.user.email).toBe(email);
  });

  it("updates the user and lists sessions through the same client", async () => {
    const { client } = betterAuthClient();
    await client.signUp.email({ name: "Up", email: `compat-up-${Date.now()}@example.com`, password: "password123" });
    expect((await client.updateUser({ name: "Updated" })).data).toEqual({ status: true });
    expect((await client.getSession({ query: { disableCookieCache: true } })).data?.user.name).toBe("Updated");
    const sessions = await client.listSessions();
    expect(sessions.error).toBeNull();
    expect(sessions.data).toHaveLength(1);
  });
});

describe("better-auth organization client against Gatehouse", () => {
  it("creates an organization, invites, and the invitee accepts", async () => {
    const owner = betterAuthClient().client;
    const stamp = Date.now();
    await owner.signUp.email({ name: "Owner", email: `ba-owner-${stamp}@example.com`, password: "password123" });
    const created = await owner.organization.create({ name: "Compat Org", slug: `compat-${stamp}` });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ name: "Compat Org", slug: `compat-${stamp}` });

    const inviteeEmail = `ba-invitee-${stamp}@example.com`;
    const invitation = await owner.organization.inviteMember({ email: inviteeEmail, role: "member" });
    expect(invitation.error).toBeNull();
    expect(invitation.data).toMatchObject({ email: inviteeEmail, role: "member", status: "pending" });

    const invitee = betterAuthClient().client;
    await invitee.signUp.email({ name: "Invitee", email: inviteeEmail, password: "password123" });
    const details = await invitee.organization.getInvitation({ query: { id: invitation.data!.id } });
    expect(details.data).toMatchObject({
      organizationName: "Compat Org",
      inviterEmail: `ba-owner-${stamp}@example.com`,
    });
    const accepted = await invitee.organization.acceptInvitation({ invitationId: invitation.data!.id });
    expect(accepted.error).toBeNull();
    expect(accepted.data?.invitation.status).toBe("accepted");

    const full = await invitee.organization.getFullOrganization();
    expect(full.data?.id).toBe(created.data!.id);
    expect(full.data?.members.map((m) => m.user.email).sort()).toEqual(
      [`ba-invitee-${stamp}@example.com`, `ba-owner-${stamp}@example.com`].sort(),
    );
    const mine = await invitee.organization.list();
    expect(mine.data?.map((o) => o.slug)).toEqual([`compat-${stamp}`]);

    const left = await invitee.organization.leave({ organizationId: created.data!.id });
    expect(left.error).toBeNull();
    expect((await owner.organization.getFullOrganization()).data?.members).toHaveLength(1);
  });
});
