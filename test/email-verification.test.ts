import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signEmailToken } from "../src/server/crypto/email-token.js";
import type { TestBrowser } from "./helpers/browser.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, settledCount, uniqueEmail, withParam } from "./helpers/mail-flows.js";
import { navigate } from "./helpers/navigation.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

const VERIFY = "Verify your email address";
const PASSWORD = "correct horse battery";

let capture: MailCapture;
/** requireEmailVerification (so sendOnSignUp), sendOnSignIn and autoSignInAfterVerification on. */
let strict: TestServer;
/** Defaults: no mail on sign-up, sign-in without verification. */
let plain: TestServer;
/** emailVerification.sendVerificationEmail off. */
let off: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  strict = await startTestServer({
    options: {
      emailAndPassword: { requireEmailVerification: true },
      emailVerification: { sendOnSignIn: true, autoSignInAfterVerification: true },
    },
    extra,
  });
  plain = await startTestServer({ extra });
  off = await startTestServer({ options: { emailVerification: { sendVerificationEmail: false } }, extra });
});
afterAll(async () => {
  await Promise.all([strict.close(), plain.close(), off.close()]);
  await capture.close();
});
afterEach(() => {
  for (const server of [strict, plain, off]) expect(server.loggedErrors).toEqual([]);
});

async function signUpUnverified(server: TestServer, label: string, callbackURL?: string) {
  const email = uniqueEmail(label);
  const res = await server.browser().post("/sign-up/email", { name: "V", email, password: PASSWORD, callbackURL });
  expect(res.status).toBe(200);
  return { email, user: res.body.user };
}

const signIn = (browser: TestBrowser, email: string) => browser.post("/sign-in/email", { email, password: PASSWORD });

/** The app's confirmation page's form: a same-origin POST of the link's query (the test browser adds the Origin). */
function confirm(browser: TestBrowser, link: string) {
  const { token, callbackURL } = Object.fromEntries(new URL(link).searchParams);
  return browser.post("/verify-email", { token, ...(callbackURL ? { callbackURL } : {}) });
}

/** Ways a GET reaches /verify-email without this browser's own script asking for it. */
const NAVIGATIONS: [string, Record<string, string>][] = [
  [
    "a link on another site",
    { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
  ],
  ["a link opened from a mail program", { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }],
  ["a same-origin navigation (a redirect)", { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" }],
  [
    "a fetch from another site",
    { origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
  ],
  ["an old browser's link from another site", { referer: "https://evil.example/page" }],
  ["a request without any of these headers", {}],
];

describe("sign-up and sign-in with requireEmailVerification", () => {
  it("mails a verification link on sign-up; following it verifies and signs in", async () => {
    const { email, user } = await signUpUnverified(strict, "signup", "/welcome");
    const mail = await nthMail(capture, email, VERIFY);
    const link = linkIn(mail, "/verify-email");
    expect(link).toMatch(
      new RegExp(`^${strict.origin}/api/auth/verify-email\\?token=[\\w-]+\\.[\\w-]+\\.[\\w-]+&callbackURL=%2Fwelcome$`),
    );
    expect(mail.html).toContain("verify-email?token=");

    const browser = strict.browser();
    expect((await signIn(browser, email)).status).toBe(403);

    // Followed from the mail, it goes to the app's page, whose button confirms.
    const followed = await navigate(browser, link, NAVIGATIONS[1]?.[1] ?? {});
    expect(followed.location).toBe(
      `${strict.origin}/verify-email?token=${new URL(link).searchParams.get("token")}&callbackURL=%2Fwelcome`,
    );
    const confirmed = await confirm(browser, link);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${strict.origin}/welcome`);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ id: user.id, email, emailVerified: true });

    expect((await signIn(strict.browser(), email)).status).toBe(200);
  });

  it.each(NAVIGATIONS)("%s signs nobody in and verifies nothing until the app's page confirms", async (_, headers) => {
    const { email, user } = await signUpUnverified(strict, "nav", "/welcome");
    const link = linkIn(await nthMail(capture, email, VERIFY), "/verify-email");
    const browser = strict.browser();
    const res = await navigate(browser, link, headers);
    expect(res.status).toBe(302);
    const page = new URL(res.location ?? "");
    expect(page.origin + page.pathname).toBe(`${strict.origin}/verify-email`);
    expect(Object.fromEntries(page.searchParams)).toEqual(Object.fromEntries(new URL(link).searchParams));
    expect(res.setCookies).toEqual([]);
    expect((await browser.get("/get-session")).body).toBeNull();
    const row = await strict.auth.database.db
      .selectFrom("user")
      .select("emailVerified")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.emailVerified)).toBe(false);

    // The link is still good for its first, confirmed use.
    expect((await confirm(browser, link)).status).toBe(302);
    expect((await browser.get("/get-session")).body.user).toMatchObject({ id: user.id, emailVerified: true });
  });

  it("the confirmation POST refuses another site's form; a trusted script's fetch signs in", async () => {
    const { email, user } = await signUpUnverified(strict, "form");
    const link = linkIn(await nthMail(capture, email, VERIFY), "/verify-email");
    const token = new URL(link).searchParams.get("token") ?? "";
    const forged = await strict.browser().request("/verify-email", {
      form: { token, callbackURL: "/" },
      headers: { origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);
    expect(forged.setCookies).toEqual([]);

    const browser = strict.browser();
    const fetched = await browser.get(`/verify-email?token=${token}`, {
      headers: { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
    });
    expect(fetched.status).toBe(200);
    expect(fetched.body.user).toMatchObject({ id: user.id, emailVerified: true });
    expect((await browser.get("/get-session")).body.user.id).toBe(user.id);
  });

  it("opens no session when a verification link is followed again", async () => {
    const { email } = await signUpUnverified(strict, "replay");
    const link = linkIn(await nthMail(capture, email, VERIFY), "/verify-email");
    expect((await confirm(strict.browser(), link)).status).toBe(302);
    const again = strict.browser();
    const replay = await again.get(link);
    expect(replay.status).toBe(302);
    expect(replay.setCookies).toEqual([]);
    expect((await again.get("/get-session")).body).toBeNull();
  });

  it("answers an unverified sign-in 403 and mails the link again, at most once a minute", async () => {
    const { email } = await signUpUnverified(strict, "resend");
    await nthMail(capture, email, VERIFY, 1);
    const first = await signIn(strict.browser(), email);
    expect(first.status).toBe(403);
    expect(first.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect((await signIn(strict.browser(), email)).status).toBe(403);
    expect(await settledCount(strict, capture, email, VERIFY)).toBe(2);

    // A wrong password sends nothing.
    const wrong = await strict.browser().post("/sign-in/email", { email, password: "wrong password!" });
    expect(wrong.status).toBe(401);

    strict.clock.advance(61);
    expect((await signIn(strict.browser(), email)).status).toBe(403);
    const third = await nthMail(capture, email, VERIFY, 3);
    expect((await strict.browser().get(linkIn(third, "/verify-email"))).status).toBe(302);
    expect(await settledCount(strict, capture, email, VERIFY)).toBe(3);
  });
});

describe("GET /verify-email failures", () => {
  it("redirects an expired link with error=token_expired, or answers 401 without a callback", async () => {
    const { email } = await signUpUnverified(strict, "expired");
    const link = linkIn(await nthMail(capture, email, VERIFY), "/verify-email");
    strict.clock.advance(3601);
    const redirected = await strict.browser().get(link);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe(`${strict.origin}/?error=token_expired`);
    const json = await strict.browser().get(withParam(link, "callbackURL", null));
    expect(json.status).toBe(401);
    expect(json.body).toEqual({ code: "TOKEN_EXPIRED", message: "Token expired" });
    const user = await strict.auth.database.db
      .selectFrom("user")
      .select("emailVerified")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.emailVerified)).toBe(false);
  });

  it("refuses a tampered token with invalid_token", async () => {
    const { email } = await signUpUnverified(strict, "tampered");
    const link = linkIn(await nthMail(capture, email, VERIFY), "/verify-email");
    const token = new URL(link).searchParams.get("token") ?? "";
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, email: "other@example.com" })).toString("base64url");
    // A middle character of the signature carries 6 full bits, so changing it always changes the bytes.
    const sig = signature ?? "";
    const flippedSignature = `${sig.slice(0, 10)}${sig[10] === "A" ? "B" : "A"}${sig.slice(11)}`;
    const tampered = [`${header}.${forged}.${signature}`, `${header}.${payload}.${flippedSignature}`, "garbage"];
    for (const bad of tampered) {
      const res = await strict.browser().get(`/verify-email?token=${encodeURIComponent(bad)}&callbackURL=%2Fdone`);
      expect(res.headers.get("location")).toBe(`${strict.origin}/done?error=invalid_token`);
      const json = await strict.browser().get(`/verify-email?token=${encodeURIComponent(bad)}`);
      expect(json.status).toBe(401);
      expect(json.body.code).toBe("INVALID_TOKEN");
    }
  });

  it("answers user_not_found for a well-signed token of an unknown email, invalid_token for the wrong user id", async () => {
    const now = strict.clock.now();
    const unknown = await signEmailToken(
      TEST_SECRET,
      { email: "nobody@example.com", userId: "x" },
      { now, expiresInSeconds: 60 },
    );
    const res = await strict.browser().get(`/verify-email?token=${unknown}&callbackURL=%2F`);
    expect(res.headers.get("location")).toBe(`${strict.origin}/?error=user_not_found`);
    const json = await strict.browser().get(`/verify-email?token=${unknown}`);
    expect(json.status).toBe(401);
    expect(json.body.code).toBe("USER_NOT_FOUND");

    const { email } = await signUpUnverified(strict, "wrong-id");
    const mismatched = await signEmailToken(
      TEST_SECRET,
      { email, userId: "someone-else" },
      { now, expiresInSeconds: 60 },
    );
    const bad = await strict.browser().get(`/verify-email?token=${mismatched}`);
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe("INVALID_TOKEN");
  });

  it("refuses a link followed while signed in as another user with unauthorized", async () => {
    const { email } = await signUpUnverified(plain, "victim");
    const signedIn = await signUp(plain);
    const token = await signEmailToken(
      TEST_SECRET,
      { email, userId: (await userIdOf(plain, email)) ?? "" },
      {
        now: plain.clock.now(),
        expiresInSeconds: 60,
      },
    );
    const res = await signedIn.browser.get(`/verify-email?token=${token}&callbackURL=%2F`);
    expect(res.headers.get("location")).toBe(`${plain.origin}/?error=unauthorized`);
    const json = await signedIn.browser.get(`/verify-email?token=${token}`);
    expect(json.status).toBe(401);
    expect(json.body.code).toBe("UNAUTHORIZED");
  });

  it("refuses an untrusted callbackURL and a missing token", async () => {
    const untrusted = await strict.browser().get("/verify-email?token=x&callbackURL=https%3A%2F%2Fevil.example%2F");
    expect(untrusted.status).toBe(403);
    expect(untrusted.body.code).toBe("INVALID_CALLBACK_URL");
    const missing = await strict.browser().get("/verify-email");
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("VALIDATION_ERROR");
  });
});

async function userIdOf(server: TestServer, email: string): Promise<string | undefined> {
  const row = await server.auth.database.db
    .selectFrom("user")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirst();
  return row?.id;
}

describe("POST /send-verification-email", () => {
  it("sends nothing on sign-up when sendOnSignUp is off", async () => {
    const { email } = await signUp(plain, { email: uniqueEmail("quiet") });
    expect(await settledCount(plain, capture, email, VERIFY)).toBe(0);
  });

  it("mails the link on sign-up by default where passkeys or two-factor are on (a factor needs it); not when told not to", async () => {
    const factors = await startTestServer({
      options: { passkey: { enabled: true }, twoFactor: { enabled: true } },
      extra: { mail: { smtpUrl: capture.url } },
    });
    const silenced = await startTestServer({
      options: { passkey: { enabled: true }, emailVerification: { sendOnSignUp: false } },
      extra: { mail: { smtpUrl: capture.url } },
    });
    try {
      const { email, browser } = await signUp(factors, { email: uniqueEmail("factors") });
      expect(await settledCount(factors, capture, email, VERIFY)).toBe(1);
      const mail = await nthMail(capture, email, VERIFY);
      expect((await browser.get(linkIn(mail, "/verify-email"))).status).toBe(302);
      expect((await browser.get("/get-session?disableCookieCache=1")).body.user.emailVerified).toBe(true);

      const quiet = await signUp(silenced, { email: uniqueEmail("silenced") });
      expect(await settledCount(silenced, capture, quiet.email, VERIFY)).toBe(0);
      for (const server of [factors, silenced]) expect(server.loggedErrors).toEqual([]);
    } finally {
      await Promise.all([factors.close(), silenced.close()]);
    }
  });

  it("mails a signed-in user's own unverified email; the link verifies without signing in again", async () => {
    const { browser, email, user } = await signUp(plain, { email: uniqueEmail("own") });
    const mismatch = await browser.post("/send-verification-email", { email: uniqueEmail("other") });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ code: "EMAIL_MISMATCH", message: "Email mismatch" });

    const sent = await browser.post("/send-verification-email", { email, callbackURL: "/verified" });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: true });
    const link = linkIn(await nthMail(capture, email, VERIFY), "/verify-email");

    const json = await plain.browser().get(withParam(link, "callbackURL", null));
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ status: true, user: null });
    const followed = await browser.get(link);
    expect(followed.headers.get("location")).toBe(`${plain.origin}/verified`);
    const session = await browser.get("/get-session?disableCookieCache=1");
    expect(session.body.user).toMatchObject({ id: user.id, emailVerified: true });

    const again = await browser.post("/send-verification-email", { email });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "EMAIL_ALREADY_VERIFIED", message: "Email is already verified" });
  });

  it("answers signed-out requests identically for unknown, unverified and verified emails", async () => {
    const unverified = await signUp(plain, { email: uniqueEmail("anon-unverified") });
    const verified = await signUp(plain, { email: uniqueEmail("anon-verified") });
    await plain.auth.database.db
      .updateTable("user")
      .set({ emailVerified: true })
      .where("id", "=", verified.user.id)
      .execute();
    const unknownEmail = uniqueEmail("anon-unknown");
    const answers = await Promise.all(
      [unverified.email, verified.email, unknownEmail].map((email) =>
        plain.browser().post("/send-verification-email", { email: email.toUpperCase() }),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
      expect(res.setCookies).toEqual([]);
    }
    await nthMail(capture, unverified.email, VERIFY);
    expect(await settledCount(plain, capture, unknownEmail, VERIFY)).toBe(0);
    expect(await settledCount(plain, capture, verified.email, VERIFY)).toBe(0);
  });

  it("refuses a malformed email and a missing one", async () => {
    const bad = await plain.browser().post("/send-verification-email", { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_EMAIL");
    const missing = await plain.browser().post("/send-verification-email", {});
    expect(missing.body.code).toBe("VALIDATION_ERROR");
  });

  it("answers VERIFICATION_EMAIL_NOT_ENABLED when the switch is off", async () => {
    const { browser, email } = await signUp(off);
    const res = await browser.post("/send-verification-email", { email });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "VERIFICATION_EMAIL_NOT_ENABLED", message: "Verification email isn't enabled" });
    expect(await settledCount(off, capture, email, VERIFY)).toBe(0);
  });
});
