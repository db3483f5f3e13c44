import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../src/server/crypto/digest.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, uniqueEmail } from "./helpers/mail-flows.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const CONFIRM = "Confirm the deletion of your account";

let capture: MailCapture;
/** deleteUser enabled: password or fresh session. */
let server: TestServer;
/** deleteUser enabled with sendDeleteAccountVerification. */
let mailed: TestServer;
/** deleteUser off (the default). */
let disabled: TestServer;
/** freshAge 0: freshness checks off, so a session alone is not proof. */
let noFreshness: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  server = await startTestServer({ options: { user: { deleteUser: { enabled: true } } }, extra });
  mailed = await startTestServer({
    options: { user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } } },
    extra,
  });
  disabled = await startTestServer({ extra });
  noFreshness = await startTestServer({
    options: { session: { freshAge: 0 }, user: { deleteUser: { enabled: true } } },
    extra,
  });
});
afterAll(async () => {
  await Promise.all([server.close(), mailed.close(), disabled.close(), noFreshness.close()]);
  await capture.close();
});
afterEach(() => {
  for (const s of [server, mailed, disabled, noFreshness]) expect(s.loggedErrors).toEqual([]);
});

/** Rows left that belong to the user, table by table. */
async function leftovers(target: TestServer, userId: string) {
  const db = target.auth.database.db;
  const count = async (query: Promise<unknown[]>) => (await query).length;
  return {
    user: await count(db.selectFrom("user").select("id").where("id", "=", userId).execute()),
    session: await count(db.selectFrom("session").select("id").where("userId", "=", userId).execute()),
    account: await count(db.selectFrom("account").select("id").where("userId", "=", userId).execute()),
    member: await count(db.selectFrom("member").select("id").where("userId", "=", userId).execute()),
    verification: await count(db.selectFrom("verification").select("id").where("value", "=", userId).execute()),
  };
}

const NOTHING_LEFT = { user: 0, session: 0, account: 0, member: 0, verification: 0 };

/** A membership and a pending reset token, so deletion has more than the user row to remove. */
async function giveMembershipAndResetToken(target: TestServer, userId: string, email: string) {
  const db = target.auth.database.db;
  const now = new Date();
  const orgId = `org-${userId}`;
  await db.insertInto("organization").values({ id: orgId, name: "Org", slug: orgId, createdAt: now }).execute();
  await db
    .insertInto("member")
    .values({ id: `m-${userId}`, organizationId: orgId, userId, role: "owner", createdAt: now })
    .execute();
  await target.browser().post("/request-password-reset", { email });
}

describe("POST /delete-user", () => {
  it("deletes with a fresh session, removing sessions, accounts, memberships and pending values", async () => {
    const { browser, email, user, password } = await signUp(server, { email: uniqueEmail("fresh") });
    await server.browser().post("/sign-in/email", { email, password });
    await giveMembershipAndResetToken(server, user.id, email);
    expect(await leftovers(server, user.id)).toEqual({ user: 1, session: 2, account: 1, member: 1, verification: 1 });

    const res = await browser.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.session_token=;") && l.includes("Max-Age=0"))).toBe(true);
    expect(await leftovers(server, user.id)).toEqual(NOTHING_LEFT);
    expect((await browser.get("/get-session")).body).toBeNull();
    expect((await server.browser().post("/sign-in/email", { email, password })).status).toBe(401);
  });

  it("checks a given password and refuses a wrong one without deleting", async () => {
    const { browser, user, password } = await signUp(server);
    const wrong = await browser.post("/delete-user", { password: "wrong password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect((await leftovers(server, user.id)).user).toBe(1);
    expect((await browser.post("/delete-user", { password })).body).toEqual({ success: true, message: "User deleted" });
    expect(await leftovers(server, user.id)).toEqual(NOTHING_LEFT);
  });

  it("needs a password once the session is older than freshAge", async () => {
    const stale = await signUp(server);
    const staleWithPassword = await signUp(server);
    server.clock.advance(86401);
    const res = await stale.browser.post("/delete-user", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "SESSION_EXPIRED",
      message: "Session expired. Re-authenticate to perform this action.",
    });
    expect((await leftovers(server, stale.user.id)).user).toBe(1);
    const ok = await staleWithPassword.browser.post("/delete-user", { password: staleWithPassword.password });
    expect(ok.status).toBe(200);
  });

  it("refuses a caller without a session", async () => {
    const res = await server.browser().post("/delete-user", {});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
  });

  it("with freshAge 0, asks for a password or token", async () => {
    const { browser, user, password } = await signUp(noFreshness);
    const res = await browser.post("/delete-user", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "USER_CANNOT_BE_DELETED",
      message: "User cannot be deleted. please provide a password or token",
    });
    expect((await browser.post("/delete-user", { password })).status).toBe(200);
    expect(await leftovers(noFreshness, user.id)).toEqual(NOTHING_LEFT);
  });

  it("is absent (404, empty body) when user.deleteUser is off", async () => {
    const { browser } = await signUp(disabled);
    const res = await browser.post("/delete-user", {});
    expect(res.status).toBe(404);
    expect(res.body).toBeNull();
    const callback = await browser.get("/delete-user/callback?token=abc");
    expect(callback.status).toBe(404);
    // A switched-off area is not routed: its link answers like any unknown path.
    expect(callback.body).toBeNull();
  });
});

describe("delete-user with an emailed confirmation", () => {
  async function requestDeletion(callbackURL?: string) {
    const account = await signUp(mailed, { email: uniqueEmail("mailed") });
    const res = await account.browser.post("/delete-user", callbackURL ? { callbackURL } : {});
    expect(res.body).toEqual({ success: true, message: "Verification email sent" });
    expect((await leftovers(mailed, account.user.id)).user).toBe(1);
    const link = linkIn(await nthMail(capture, account.email, CONFIRM), "/delete-user/callback");
    const token = new URL(link).searchParams.get("token") ?? "";
    return { ...account, link, token };
  }

  it("mails a link that deletes the account when opened where the user is signed in", async () => {
    const { browser, link, token, user } = await requestDeletion("/goodbye");
    expect(token).toMatch(/^[0-9a-z]{32}$/);
    expect(link).toBe(`${mailed.origin}/api/auth/delete-user/callback?token=${token}&callbackURL=%2Fgoodbye`);
    const stored = await mailed.auth.database.db
      .selectFrom("verification")
      .select("identifier")
      .where("value", "=", user.id)
      .execute();
    expect(stored).toEqual([{ identifier: `delete-account-${sha256Base64Url(token)}` }]);

    const signedOut = await mailed.browser().get(link);
    expect(signedOut.status).toBe(404);
    expect(signedOut.body.code).toBe("FAILED_TO_GET_USER_INFO");

    const intruder = await signUp(mailed);
    const wrongUser = await intruder.browser.get(link);
    expect(wrongUser.status).toBe(404);
    expect(wrongUser.body).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect((await leftovers(mailed, intruder.user.id)).user).toBe(1);

    const res = await browser.get(link);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${mailed.origin}/goodbye`);
    expect(await leftovers(mailed, user.id)).toEqual(NOTHING_LEFT);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("accepts the token in POST /delete-user, once", async () => {
    const { browser, token, user } = await requestDeletion();
    const res = await browser.post("/delete-user", { token });
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await leftovers(mailed, user.id)).toEqual(NOTHING_LEFT);

    const other = await requestDeletion();
    const reuse = await other.browser.post("/delete-user", { token });
    expect(reuse.status).toBe(404);
    expect(reuse.body.code).toBe("INVALID_TOKEN");
    const flipped = other.token.endsWith("a") ? "b" : "a";
    const tampered = await other.browser.post("/delete-user", { token: `${other.token.slice(0, -1)}${flipped}` });
    expect(tampered.status).toBe(404);
    expect(tampered.body.code).toBe("INVALID_TOKEN");
    expect((await leftovers(mailed, other.user.id)).user).toBe(1);
  });

  it("expires the token after deleteTokenExpiresIn", async () => {
    const { browser, link, user } = await requestDeletion();
    mailed.clock.advance(86401);
    // The session (7 days) outlives the token (1 day): only the token's expiry refuses this.
    const res = await browser.get(link);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("INVALID_TOKEN");
    expect((await leftovers(mailed, user.id)).user).toBe(1);
  });

  it("mails nothing to an organization's only owner; a link mailed before a member joined is refused", async () => {
    const founder = await signUp(mailed, { email: uniqueEmail("founder") });
    const { organizationId } = await createOrganization(mailed, { owner: founder });
    await joinAs(mailed, organizationId, "member");
    const res = await founder.browser.post("/delete-user", {});
    expect([res.status, res.body.code]).toEqual([400, "USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION"]);
    expect((await leftovers(mailed, founder.user.id)).verification).toBe(0);

    const deletion = await requestDeletion();
    const { browser, link, user } = deletion;
    const later = await createOrganization(mailed, { owner: deletion });
    await joinAs(mailed, later.organizationId, "member");
    const refused = await browser.get(link);
    expect([refused.status, refused.body.code]).toEqual([400, "USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION"]);
    // The token is kept (the refusal rolled its use back) and works once the ownership has moved on.
    expect((await leftovers(mailed, user.id)).verification).toBe(1);
  });

  it("still refuses a wrong password before mailing anything", async () => {
    const { browser, user } = await signUp(mailed);
    const res = await browser.post("/delete-user", { password: "wrong password" });
    expect(res.body.code).toBe("INVALID_PASSWORD");
    expect((await leftovers(mailed, user.id)).verification).toBe(0);
  });
});
