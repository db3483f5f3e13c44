import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * The hot read routes answer in one database round trip: the session lookup every authenticated
 * route makes (see session.test.ts) and the route's own rows in one statement. Counted, not timed.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { session: { cookieCache: { enabled: false } } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

async function roundTrips(browser: { get: (p: string) => Promise<any> }, path: string) {
  const before = server.queryCount();
  const res = await browser.get(path);
  return { res, trips: server.queryCount() - before };
}

describe("read routes: the session lookup and the answer in one statement", () => {
  it("list-sessions and list-accounts", async () => {
    const { browser, user } = await signUp(server);
    const sessions = await roundTrips(browser, "/list-sessions");
    expect(sessions.res.status).toBe(200);
    expect(sessions.res.body).toHaveLength(1);
    expect(sessions.trips).toBe(1);

    const accounts = await roundTrips(browser, "/list-accounts");
    expect(accounts.res.status).toBe(200);
    expect(accounts.res.body).toMatchObject([{ providerId: "credential", userId: user.id }]);
    expect(accounts.trips).toBe(1);
  });

  it("organization/list, get-active-member and list-members", async () => {
    const { owner, organizationId, slug } = await createOrganization(server);
    await createOrganization(server, { owner });
    const bea = await joinAs(server, organizationId, "member", "Bea");

    const list = await roundTrips(owner.browser, "/organization/list");
    expect(list.res.body).toHaveLength(2);
    expect(list.trips).toBe(1);

    const active = await roundTrips(bea.browser, "/organization/get-active-member");
    expect(active.res.body).toMatchObject({ organizationId, userId: bea.user.id, role: "member" });
    expect(active.trips).toBe(1);

    const members = await roundTrips(bea.browser, `/organization/list-members?organizationId=${organizationId}`);
    expect(members.res.body.total).toBe(2);
    expect(members.res.body.members.map((m: any) => m.user.name)).toEqual(["Owner", "Bea"]);
    expect(members.trips).toBe(1);
    // Asked again, the page is the one kept (the statement leaves it out): still the one round trip.
    const again = await roundTrips(bea.browser, `/organization/list-members?organizationId=${organizationId}`);
    expect([again.res.body, again.trips]).toEqual([members.res.body, 1]);

    const bySlug = await roundTrips(bea.browser, `/organization/list-members?organizationSlug=${slug}&sortBy=name`);
    expect(bySlug.res.body.members.map((m: any) => m.user.name)).toEqual(["Bea", "Owner"]);
    expect(bySlug.trips).toBe(1);

    // A filter, or a page past the first, reads the session first and then the page: two.
    const filtered = await roundTrips(
      bea.browser,
      `/organization/list-members?organizationId=${organizationId}&filterField=role&filterValue=member`,
    );
    expect(filtered.res.body.members.map((m: any) => m.user.name)).toEqual(["Bea"]);
    expect(filtered.trips).toBe(2);
  });

  it("the answers' errors: no active organization, not a member, member not found", async () => {
    const { organizationId } = await createOrganization(server);
    const stranger = await signUp(server);
    const none = await roundTrips(stranger.browser, "/organization/get-active-member");
    expect(none.res.status).toBe(400);
    expect(none.res.body.code).toBe("NO_ACTIVE_ORGANIZATION");
    const noList = await stranger.browser.get("/organization/list-members");
    expect(noList.status).toBe(400);
    expect(noList.body.code).toBe("NO_ACTIVE_ORGANIZATION");

    const named = await roundTrips(
      stranger.browser,
      `/organization/get-active-member?organizationId=${organizationId}`,
    );
    expect(named.res.status).toBe(400);
    expect(named.res.body.code).toBe("MEMBER_NOT_FOUND");
    expect(named.trips).toBe(1);
    const members = await roundTrips(stranger.browser, `/organization/list-members?organizationId=${organizationId}`);
    expect(members.res.status).toBe(403);
    expect(members.res.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    expect(members.trips).toBe(1);

    const empty = await roundTrips(stranger.browser, "/organization/list");
    expect(empty.res.body).toEqual([]);
    expect(empty.trips).toBe(1);
  });

  it("list-members past the end still tells a member (empty page) from a stranger (403)", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const past = await owner.browser.get(`/organization/list-members?organizationId=${organizationId}&offset=5`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ members: [], total: 1 });

    const stranger = await signUp(server);
    for (const offset of [0, 5]) {
      const res = await stranger.browser.get(
        `/organization/list-members?organizationId=${organizationId}&offset=${offset}`,
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    }
  });

  it.each([
    "/list-sessions",
    "/list-accounts",
    "/organization/list",
    "/organization/get-active-member",
    "/organization/list-members",
  ])("%s: an expired or banned session gets 401 and is deleted, as by the session lookup", async (path) => {
    const expiring = await createOrganization(server);
    const banned = await createOrganization(server);
    expect((await expiring.owner.browser.get(path)).status).toBe(200);
    const sessionRows = (userId: string) =>
      server.auth.database.db.selectFrom("session").select("id").where("userId", "=", userId).execute();

    await server.auth.database.db
      .updateTable("session")
      .set({ expiresAt: new Date(server.clock.now().getTime() - 1000) })
      .where("userId", "=", expiring.owner.user.id)
      .execute();
    const expired = await roundTrips(expiring.owner.browser, path);
    expect(expired.res.status).toBe(401);
    expect(expired.res.body.code).toBe("UNAUTHORIZED");
    expect(expired.trips).toBe(2); // the read, then the deletion
    expect(await sessionRows(expiring.owner.user.id)).toEqual([]);

    await server.auth.database.db
      .updateTable("user")
      .set({ banned: true, banReason: "spam", banExpires: null })
      .where("id", "=", banned.owner.user.id)
      .execute();
    const refused = await roundTrips(banned.owner.browser, path);
    expect(refused.res.status).toBe(401);
    expect(await sessionRows(banned.owner.user.id)).toEqual([]);
  });
});
