import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * The hot read routes answer in two database round trips: the session lookup every authenticated
 * route makes (one, see session.test.ts) and one statement for the answer. Counted, not timed.
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

describe("read routes: the session lookup plus one statement", () => {
  it("list-sessions and list-accounts", async () => {
    const { browser, user } = await signUp(server);
    const sessions = await roundTrips(browser, "/list-sessions");
    expect(sessions.res.status).toBe(200);
    expect(sessions.res.body).toHaveLength(1);
    expect(sessions.trips).toBe(2);

    const accounts = await roundTrips(browser, "/list-accounts");
    expect(accounts.res.status).toBe(200);
    expect(accounts.res.body).toMatchObject([{ providerId: "credential", userId: user.id }]);
    expect(accounts.trips).toBe(2);
  });

  it("organization/list, get-active-member and list-members", async () => {
    const { owner, organizationId, slug } = await createOrganization(server);
    await createOrganization(server, { owner });
    const bea = await joinAs(server, organizationId, "member", "Bea");

    const list = await roundTrips(owner.browser, "/organization/list");
    expect(list.res.body).toHaveLength(2);
    expect(list.trips).toBe(2);

    const active = await roundTrips(bea.browser, "/organization/get-active-member");
    expect(active.res.body).toMatchObject({ organizationId, userId: bea.user.id, role: "member" });
    expect(active.trips).toBe(2);

    const members = await roundTrips(bea.browser, `/organization/list-members?organizationId=${organizationId}`);
    expect(members.res.body.total).toBe(2);
    expect(members.res.body.members.map((m: any) => m.user.name)).toEqual(["Owner", "Bea"]);
    expect(members.trips).toBe(2);

    const bySlug = await roundTrips(bea.browser, `/organization/list-members?organizationSlug=${slug}&sortBy=name`);
    expect(bySlug.res.body.members.map((m: any) => m.user.name)).toEqual(["Bea", "Owner"]);
    expect(bySlug.trips).toBe(2);
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
});
