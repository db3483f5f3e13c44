import { createAuthClient } from "better-auth/client";
import { magicLinkClient } from "better-auth/client/plugins";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
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

/** Asks for a link and returns the token from the mailed confirmation page's URL. */
async function mailedToken(email: string, body: Record<string, unknown> = {}, target = server, n = 1) {
  const res = await target.browser().post("/sign-in/magic-link", { email, ...body });
  expect(res.body).toEqual({ status: true });
  const mail = await nthMail(capture, email, SUBJECT, n);
  const link = new URL(/https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "");
  expect(link.pathname).toBe("/magic-link");
  return { token: link.searchParams.get("token") ?? "", link };
}

const verifyPath = (token: string, query: Record<string, string> = {}) =>
  `/magic-link/verify?${new URLSearchParams({ token, ...query })}`;

describe("magic links", () => {
  it("signs up a new address with a verified email, once; the mail points at the app's page, not the API", async () => {
    const email = uniqueEmail("magic");
    const { token, link } = await mailedToken(email, { name: "Magic", callbackURL: "/welcome" });
    expect(link.searchParams.get("callbackURL")).toBe("/welcome");

    const browser = server.browser();
    const res = await browser.get(verifyPath(token, { callbackURL: "/welcome" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${server.origin}/welcome`);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email, name: "Magic", emailVerified: true });

    const again = await server.browser().get(verifyPath(token, { callbackURL: "/welcome" }));
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`${server.origin}/welcome?error=INVALID_TOKEN`);
  });

  it("answers JSON without a callbackURL, and a HEAD (a link scanner) spends nothing", async () => {
    const account = await signUp(server, { email: uniqueEmail("json") });
    const { token } = await mailedToken(account.email);
    const head = await fetch(`${server.origin}/api/auth${verifyPath(token)}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const res = await server.browser().get(verifyPath(token));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), user: { id: account.user.id }, session: {} });
  });

  it("takes away a password and sessions set up on an address nobody had proven", async () => {
    const squatter = await signUp(server, { email: uniqueEmail("owner") });
    const { token } = await mailedToken(squatter.email);
    const owner = server.browser();
    expect((await owner.get(verifyPath(token))).status).toBe(200);
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
    const late = await server.browser().get(verifyPath(token));
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
    const res = await browser.get(verifyPath(token));
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
