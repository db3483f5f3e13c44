import { URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, uniqueEmail } from "./helpers/mail-flows.js";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { providerOptions, socialFlow } from "./helpers/social.js";

let capture: MailCapture;
let oidc: TestOidcProvider;
let server: TestServer;

beforeAll(async () => {
  [capture, oidc] = await Promise.all([startMailCapture(), startOidcProvider()]);
  server = await startTestServer({
    options: { twoFactor: { enabled: true }, socialProviders: { oidc: providerOptions(oidc) } },
    extra: { mail: { smtpUrl: capture.url } },
  });
  await oidc.configure([`${server.origin}/api/auth/callback/oidc`]);
});
afterAll(async () => {
  await server?.close();
  await Promise.all([capture?.close(), oidc?.close()]);
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

/** The current code of an otpauth URI, at the server's clock (shifted by `steps` periods). */
function codeFor(totpURI: string, steps = 0): string {
  const totp = URI.parse(totpURI) as import("otpauth").TOTP;
  return totp.generate({ timestamp: server.clock.now().getTime() + steps * 30_000 });
}

/** A user with two-factor on: signed up, TOTP enrolled and confirmed. The clock moves past the step used. */
async function userWithTwoFactor() {
  const account = await signUp(server, { email: uniqueEmail("tf"), verified: true });
  const enabled = await account.browser.post("/two-factor/enable", { password: account.password });
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = enabled.body as { totpURI: string; backupCodes: string[] };
  const confirm = await account.browser.post("/two-factor/verify-totp", { code: codeFor(totpURI) });
  expect(confirm.status).toBe(200);
  server.clock.advance(30);
  return { ...account, totpURI, backupCodes };
}

async function passwordStep(email: string, password: string, browser: TestBrowser = server.browser()) {
  const res = await browser.post("/sign-in/email", { email, password });
  return { browser, res };
}

describe("turning TOTP two-factor on", () => {
  it("asks for the password, then a code from the app; only then does sign-in ask for a second factor", async () => {
    const account = await signUp(server, { email: uniqueEmail("enrol"), verified: true });
    const wrong = await account.browser.post("/two-factor/enable", { password: "not it" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_PASSWORD");

    const enabled = await account.browser.post("/two-factor/enable", { password: account.password });
    expect(enabled.status).toBe(200);
    expect(enabled.body.method).toBe("totp");
    expect(enabled.body.totpURI).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(enabled.body.backupCodes).toHaveLength(10);
    // Not confirmed yet: the password alone still signs in.
    expect((await passwordStep(account.email, account.password)).res.body.token).toEqual(expect.any(String));

    const confirmed = await account.browser.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user.twoFactorEnabled).toBe(true);
    expect((await account.browser.get("/get-session")).body.user.twoFactorEnabled).toBe(true);
    server.clock.advance(30);

    const { browser, res } = await passwordStep(account.email, account.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(browser.cookieNames().some((name) => name.endsWith(".session_token"))).toBe(false);
    expect(browser.cookieNames().some((name) => name.endsWith(".two_factor"))).toBe(true);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("keeps the secret sealed and the backup codes hashed at rest", async () => {
    const { user, totpURI, backupCodes } = await userWithTwoFactor();
    const row = await db().selectFrom("twoFactor").selectAll().where("userId", "=", user.id).executeTakeFirstOrThrow();
    const secret = new URL(totpURI).searchParams.get("secret") ?? "";
    expect(row.secret).not.toContain(secret);
    for (const code of backupCodes) expect(row.backupCodes).not.toContain(code);
  });
});

describe("signing in with a second factor", () => {
  it("completes with a TOTP code; a wrong code or a reused one is refused", async () => {
    const account = await userWithTwoFactor();
    const { browser } = await passwordStep(account.email, account.password);
    const wrong = await browser.post("/two-factor/verify-totp", { code: "000000" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("INVALID_CODE");

    const code = codeFor(account.totpURI);
    const ok = await browser.post("/two-factor/verify-totp", { code });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toEqual(expect.any(String));
    expect((await browser.get("/get-session")).body.user.id).toBe(account.user.id);

    // The same code, in the same 30 s, for another sign-in: refused (no replay).
    const second = await passwordStep(account.email, account.password);
    const replay = await second.browser.post("/two-factor/verify-totp", { code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe("INVALID_CODE");
  });

  it("refuses a verification without the two-factor cookie, and ends a challenge after five wrong codes", async () => {
    const stranger = await server.browser().post("/two-factor/verify-totp", { code: "123456" });
    expect(stranger.status).toBe(401);
    expect(stranger.body.code).toBe("INVALID_TWO_FACTOR_COOKIE");

    const account = await userWithTwoFactor();
    const { browser } = await passwordStep(account.email, account.password);
    for (let i = 0; i < 5; i++) await browser.post("/two-factor/verify-totp", { code: "000000" });
    const sixth = await browser.post("/two-factor/verify-totp", { code: codeFor(account.totpURI) });
    expect(sixth.body.code).toMatch(/TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE|TOO_MANY_REQUESTS/);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("accepts each backup code once", async () => {
    const account = await userWithTwoFactor();
    const [code] = account.backupCodes;
    const first = await passwordStep(account.email, account.password);
    const ok = await first.browser.post("/two-factor/verify-backup-code", { code });
    expect(ok.status).toBe(200);
    const again = await passwordStep(account.email, account.password);
    const reused = await again.browser.post("/two-factor/verify-backup-code", { code });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe("INVALID_BACKUP_CODE");
  });

  it("completes with a code sent by mail", async () => {
    const account = await userWithTwoFactor();
    const { browser } = await passwordStep(account.email, account.password);
    expect((await browser.post("/two-factor/send-otp", {})).body).toEqual({ status: true });
    const mail = await nthMail(capture, account.email, "Your sign-in code");
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
    const ok = await browser.post("/two-factor/verify-otp", { code });
    expect(ok.status).toBe(200);
    expect((await browser.get("/get-session")).body.user.email).toBe(account.email);
  });

  it("skips the second factor on a trusted device, until the password changes", async () => {
    const account = await userWithTwoFactor();
    const device = server.browser();
    await passwordStep(account.email, account.password, device);
    const trusted = await device.post("/two-factor/verify-totp", { code: codeFor(account.totpURI), trustDevice: true });
    expect(trusted.status).toBe(200);
    await device.post("/sign-out", {});

    const direct = await passwordStep(account.email, account.password, device);
    expect(direct.res.body.token).toEqual(expect.any(String));
    // Another browser is not trusted.
    expect((await passwordStep(account.email, account.password)).res.body.twoFactorRedirect).toBe(true);

    const changed = await device.post("/change-password", {
      currentPassword: account.password,
      newPassword: "another sturdy password",
    });
    expect(changed.status).toBe(200);
    await device.post("/sign-out", {});
    const after = await passwordStep(account.email, "another sturdy password", device);
    expect(after.res.body.twoFactorRedirect).toBe(true);
  });

  it("stops trusting the user's devices when they reset their password by mail", async () => {
    const account = await userWithTwoFactor();
    const device = server.browser();
    await passwordStep(account.email, account.password, device);
    await device.post("/two-factor/verify-totp", { code: codeFor(account.totpURI), trustDevice: true });
    await device.post("/sign-out", {});

    expect((await server.browser().post("/request-password-reset", { email: account.email })).status).toBe(200);
    const link = linkIn(await nthMail(capture, account.email, "Reset your password"), "/reset-password/");
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const reset = await server.browser().post("/reset-password", { newPassword: "reset by mail 123", token });
    expect(reset.status).toBe(200);
    const after = await passwordStep(account.email, "reset by mail 123", device);
    expect(after.res.body.twoFactorRedirect).toBe(true);
  });

  it("stops trusting the user's devices when an admin sets their password", async () => {
    const account = await userWithTwoFactor();
    const device = server.browser();
    await passwordStep(account.email, account.password, device);
    await device.post("/two-factor/verify-totp", { code: codeFor(account.totpURI), trustDevice: true });
    await device.post("/sign-out", {});
    expect((await passwordStep(account.email, account.password, device)).res.body.token).toEqual(expect.any(String));
    await device.post("/sign-out", {});

    const admin = await signUp(server, { email: uniqueEmail("admin") });
    await db().updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
    const set = await admin.browser.post("/admin/set-user-password", {
      userId: account.user.id,
      newPassword: "set by the admin",
    });
    expect(set.status).toBe(200);
    const after = await passwordStep(account.email, "set by the admin", device);
    expect(after.res.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
  });

  it("gates a provider sign-in too: back at the app with twoFactorRedirect, and no session", async () => {
    const provider = oidc.addUser();
    const first = server.browser();
    await socialFlow(first, oidc, provider.sub, { body: { provider: "oidc", callbackURL: "/" } });
    const enabled = await first.post("/two-factor/enable", {});
    expect(enabled.status).toBe(200);
    expect((await first.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) })).status).toBe(200);
    server.clock.advance(30);

    const browser = server.browser();
    const { callback } = await socialFlow(browser, oidc, provider.sub, {
      body: { provider: "oidc", callbackURL: "/" },
    });
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location"), callback.headers.get("location") ?? "").toContain(
      "twoFactorRedirect=true",
    );
    expect((await browser.get("/get-session")).body).toBeNull();
    const ok = await browser.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) });
    expect(ok.status).toBe(200);
    expect((await browser.get("/get-session")).body.user.email).toBe(provider.email);
  });
});

describe("managing two-factor", () => {
  it("new backup codes replace the old; turning it off lets the password alone sign in again", async () => {
    const account = await userWithTwoFactor();
    const fresh = await account.browser.post("/two-factor/generate-backup-codes", { password: account.password });
    expect(fresh.body.backupCodes).toHaveLength(10);
    const old = await passwordStep(account.email, account.password);
    expect((await old.browser.post("/two-factor/verify-backup-code", { code: account.backupCodes[0] })).status).toBe(
      401,
    );

    const uri = await account.browser.post("/two-factor/get-totp-uri", { password: account.password });
    expect(uri.body.totpURI).toBe(account.totpURI);

    const off = await account.browser.post("/two-factor/disable", { password: account.password });
    expect(off.body).toEqual({ status: true });
    expect((await account.browser.get("/get-session")).body.user.twoFactorEnabled).toBe(false);
    expect((await passwordStep(account.email, account.password)).res.body.token).toEqual(expect.any(String));
  });
});
