import { createAuthClient } from "better-auth/client";
import { magicLinkClient } from "better-auth/client/plugins";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseSetCookie, type TestBrowser } from "./helpers/browser.js";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { navigate } from "./helpers/navigation.js";
import { uniqueSlug } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const SUBJECT = "Your sign-in link";
let capture: MailCapture;
let server: TestServer;
/** magicLink.disableSignUp on. */
let existingOnly: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  [server, existingOnly] = await Promise.all([
    startTestServer({ options: { magicLink: { enabled: true }, twoFactor: { enabled: true } }, extra }),
    startTestServer({ options: { magicLink: { enabled: true, disableSignUp: true } }, extra }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), existingOnly?.close()]);
  await capture?.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(existingOnly.loggedErrors).toEqual([]);
});

/**
 * Asks for a link (from `requester`, a browser of its own unless given) and returns the token from
 * the mailed confirmation page's URL.
 */
async function mailedToken(
  email: string,
  body: Record<string, unknown> = {},
  target = server,
  n = 1,
  requester: TestBrowser = target.browser(),
) {
  const res = await requester.post("/sign-in/magic-link", { email, ...body });
  expect(res.body).toEqual({ status: true });
  const mail = await nthMail(capture, email, SUBJECT, n);
  const link = new URL(/https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "");
  expect(link.pathname).toBe("/magic-link");
  return { token: link.searchParams.get("token") ?? "", link };
}

const verifyPath = (token: string, query: Record<string, string> = {}) =>
  `/magic-link/verify?${new URLSearchParams({ token, ...query })}`;

/** What a script's fetch on the app's own page sends (better-auth's magicLink.verify in a browser). */
const SAME_ORIGIN_FETCH = { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" };
/** The confirmation page's form: a same-origin POST (the test browser adds the app's Origin). */
const confirm = (browser: TestBrowser, token: string, query: Record<string, string> = {}) =>
  browser.post("/magic-link/verify", { token, ...query });

const CROSS_SITE_LINK = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
/** Ways a GET reaches the verify route without this browser's own script asking for it. */
const NAVIGATIONS: [string, Record<string, string>][] = [
  ["a cross-site link", CROSS_SITE_LINK],
  ["a link opened from a mail program", { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }],
  ["a same-origin navigation (a redirect)", { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" }],
  [
    "an image on another site",
    { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" },
  ],
  [
    "a fetch from another site",
    { origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
  ],
  ["an old browser's link from another site", { referer: "https://evil.example/page" }],
  ["a request without any of these headers", {}],
];

describe("magic links", () => {
  it("signs up a new address with a verified email, once; the mail points at the app's page, not the API", async () => {
    const email = uniqueEmail("magic");
    const { token, link } = await mailedToken(email, { name: "Magic", callbackURL: "/welcome" });
    expect(link.searchParams.get("callbackURL")).toBe("/welcome");

    const browser = server.browser();
    const res = await confirm(browser, token, { callbackURL: "/welcome" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${server.origin}/welcome`);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email, name: "Magic", emailVerified: true });

    const again = await confirm(server.browser(), token, { callbackURL: "/welcome" });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`${server.origin}/welcome?error=INVALID_TOKEN`);
  });

  it("answers JSON without a callbackURL, and a HEAD (a link scanner) spends nothing", async () => {
    const account = await signUp(server, { email: uniqueEmail("json") });
    const { token } = await mailedToken(account.email);
    const head = await fetch(`${server.origin}/api/auth${verifyPath(token)}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const res = await server.browser().get(verifyPath(token), { headers: SAME_ORIGIN_FETCH });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), user: { id: account.user.id }, session: {} });
  });

  it("takes away a password and sessions set up on an address nobody had proven", async () => {
    const squatter = await signUp(server, { email: uniqueEmail("owner") });
    const { token } = await mailedToken(squatter.email);
    const owner = server.browser();
    expect((await owner.get(verifyPath(token), { headers: SAME_ORIGIN_FETCH })).status).toBe(200);
    expect((await squatter.browser.get("/get-session")).body).toBeNull();
    const withPassword = await server
      .browser()
      .post("/sign-in/email", { email: squatter.email, password: squatter.password });
    expect(withPassword.status).toBe(401);
    expect((await owner.get("/get-session")).body.user.emailVerified).toBe(true);
  });

  it("refuses an expired link and an untrusted callbackURL", async () => {
    const email = uniqueEmail("late");
    const { token } = await mailedToken(email);
    const foreign = await server.browser().get(verifyPath(token, { callbackURL: "https://evil.example/" }));
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("INVALID_CALLBACK_URL");
    server.clock.advance(301);
    const late = await server.browser().get(verifyPath(token), { headers: SAME_ORIGIN_FETCH });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("INVALID_TOKEN");
  });

  it("sends nothing to an unknown address when sign-up by link is off, and answers the same", async () => {
    const email = uniqueEmail("nobody");
    const res = await existingOnly.browser().post("/sign-in/magic-link", { email });
    expect(res.body).toEqual({ status: true });
    expect(await settledCount(existingOnly, capture, email, SUBJECT)).toBe(0);
  });

  it("asks a two-factor user for the second factor instead of signing them in", async () => {
    const account = await signUp(server, { email: uniqueEmail("tf-link") });
    // A proven address: an unproven one would lose its two-factor to the link (test/pre-hijack.test.ts).
    await server.auth.database.db
      .updateTable("user")
      .set({ twoFactorEnabled: true, emailVerified: true })
      .where("id", "=", account.user.id)
      .execute();
    const { token } = await mailedToken(account.email);
    const browser = server.browser();
    const res = await browser.get(verifyPath(token), { headers: SAME_ORIGIN_FETCH });
    expect(res.body).toMatchObject({ twoFactorRedirect: true });
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("works with better-auth's magicLinkClient", async () => {
    const jar = cookieFetch();
    const client = createAuthClient({
      baseURL: server.origin,
      plugins: [magicLinkClient()],
      fetchOptions: { customFetchImpl: jar, headers: { origin: server.origin } },
    });
    const email = uniqueEmail("client");
    const sent = await client.signIn.magicLink({ email, callbackURL: "/" });
    expect(sent.data).toEqual({ status: true });
    const mail = await nthMail(capture, email, SUBJECT);
    const token = new URL(/https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "").searchParams.get("token");
    const verified = await client.magicLink.verify({ query: { token: token ?? "" } });
    expect(verified.error).toBeNull();
    expect((await client.getSession()).data?.user.email).toBe(email);
  });
});

describe("magic links followed from elsewhere (login CSRF)", () => {
  it.each(NAVIGATIONS)(
    "%s signs nobody in, spends nothing and goes to the app's confirmation page",
    async (_, headers) => {
      const email = uniqueEmail("nav");
      const { token } = await mailedToken(email);
      const query = { callbackURL: "/welcome", newUserCallbackURL: "/new", errorCallbackURL: "/sign-in" };
      const browser = server.browser();
      const res = await navigate(browser, verifyPath(token, query), headers);
      expect(res.status).toBe(302);
      const page = new URL(res.location ?? "");
      expect(page.origin + page.pathname).toBe(`${server.origin}/magic-link`);
      expect(Object.fromEntries(page.searchParams)).toEqual({ token, ...query });
      expect(res.setCookies).toEqual([]);
      expect((await browser.get("/get-session")).body).toBeNull();

      // Confirmed on that page, the same link still works.
      const confirmed = await confirm(browser, token, query);
      expect(confirmed.status).toBe(302);
      expect(confirmed.headers.get("location")).toBe(`${server.origin}/new`);
      expect((await browser.get("/get-session")).body.user.email).toBe(email);
    },
  );

  it("the confirmation POST takes the app's form and refuses another site's", async () => {
    const email = uniqueEmail("form");
    const { token } = await mailedToken(email);
    const forged = await server.browser().request("/magic-link/verify", {
      form: { token, callbackURL: "/" },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(forged.status).toBe(403);
    expect(forged.setCookies).toEqual([]);
    const noOrigin = await server.browser().request("/magic-link/verify", {
      form: { token, callbackURL: "/" },
      noOrigin: true,
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(noOrigin.status).toBe(403);

    const browser = server.browser();
    const res = await browser.request("/magic-link/verify", {
      form: { token, callbackURL: "/" },
      headers: { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${server.origin}/`);
    expect((await browser.get("/get-session")).body.user.email).toBe(email);
  });

  it("binds links to the asking browser with an HttpOnly, Lax cookie that lives as long as they do", async () => {
    const browser = server.browser();
    const res = await browser.post("/sign-in/magic-link", { email: uniqueEmail("cookie") });
    const line = res.setCookies.find((cookie) => cookie.startsWith("gatehouse.link_requester="));
    const { attributes } = parseSetCookie(line ?? "");
    expect(attributes).toMatchObject({ "max-age": "300", path: "/", httponly: true, samesite: "Lax" });
    // A second request keeps the browser's value, so its earlier links stay bound to it.
    const value = browser.cookie("gatehouse.link_requester");
    await browser.post("/sign-in/magic-link", { email: uniqueEmail("cookie") });
    expect(browser.cookie("gatehouse.link_requester")).toBe(value);
  });

  it("signs in at once the browser that asked for the link, even from the mail", async () => {
    const email = uniqueEmail("bound");
    const browser = server.browser();
    const { token } = await mailedToken(email, {}, server, 1, browser);
    const res = await navigate(browser, verifyPath(token, { callbackURL: "/welcome" }), CROSS_SITE_LINK);
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${server.origin}/welcome`);
    expect((await browser.get("/get-session")).body.user.email).toBe(email);
  });
});

describe("magic links and a guest's work", () => {
  /** A guest (anonymous session) with an organization of their own. */
  async function guestWithOrganization() {
    const browser = server.browser();
    const guest = await browser.post("/sign-in/anonymous", {});
    expect(guest.status).toBe(200);
    const org = await browser.post("/organization/create", { name: "Guest work", slug: uniqueSlug("guest") });
    expect(org.status).toBe(200);
    return { browser, guestId: guest.body.user.id as string, organizationId: org.body.id as string };
  }
  const membersOf = async (organizationId: string) =>
    (
      await server.auth.database.db
        .selectFrom("member")
        .select("userId")
        .where("organizationId", "=", organizationId)
        .execute()
    ).map((row) => row.userId);

  it("never moves to the account of a link someone else asked for, even when the guest confirms it", async () => {
    const { browser, guestId, organizationId } = await guestWithOrganization();
    const attacker = server.browser();
    const attackerEmail = uniqueEmail("attacker");
    const { token } = await mailedToken(attackerEmail, {}, server, 1, attacker);

    const followed = await navigate(browser, verifyPath(token, { callbackURL: "/" }), CROSS_SITE_LINK);
    expect(followed.status).toBe(302);
    expect(followed.setCookies).toEqual([]);
    expect((await browser.get("/get-session")).body.user.id).toBe(guestId);

    // Whoever presses the confirmation button signs in, but the guest's organization stays the guest's.
    expect((await confirm(browser, token, { callbackURL: "/" })).status).toBe(302);
    const signedIn = (await browser.get("/get-session")).body.user;
    expect(signedIn.email).toBe(attackerEmail);
    expect(await membersOf(organizationId)).toEqual([guestId]);
    const kept = await server.auth.database.db
      .selectFrom("user")
      .select("id")
      .where("id", "=", guestId)
      .executeTakeFirst();
    expect(kept?.id).toBe(guestId);
  });

  it("moves to the account when the guest's own browser asked for the link", async () => {
    const { browser, guestId, organizationId } = await guestWithOrganization();
    const email = uniqueEmail("keeper");
    const { token } = await mailedToken(email, {}, server, 1, browser);
    const res = await navigate(browser, verifyPath(token, { callbackURL: "/" }), CROSS_SITE_LINK);
    expect(res.status).toBe(302);
    const user = (await browser.get("/get-session")).body.user;
    expect(user.email).toBe(email);
    expect(await membersOf(organizationId)).toEqual([user.id]);
    expect(user.id).not.toBe(guestId);
  });
});
