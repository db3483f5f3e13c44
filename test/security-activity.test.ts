import { URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Issue 34, item 3: security activity for users, the new-device mail and its "Not you?" link. */
const NEW_DEVICE = "New sign-in to your account";
const FIREFOX = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
const SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15";

let capture: MailCapture;
let server: TestServer;
let off: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  server = await startTestServer({
    options: { audit: { enabled: true }, securityActivity: { enabled: true }, twoFactor: { enabled: true } },
    extra,
  });
  off = await startTestServer({ options: { audit: { enabled: true } }, extra });
});
afterAll(async () => {
  await Promise.all([server.close(), off.close()]);
  await capture.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(off.loggedErrors).toEqual([]);
});

const db = () => server.auth.database.db;

function signIn(browser: TestBrowser, email: string, password: string, userAgent = SAFARI, language = "en") {
  return browser.post(
    "/sign-in/email",
    { email, password },
    { headers: { "user-agent": userAgent, "accept-language": language } },
  );
}

describe("the new-device mail", () => {
  it("goes once per device, never for the account's first, in the request's language", async () => {
    const account = await signUp(server, { email: uniqueEmail("device") });
    // The sign-up's browser is the account's first device: learned without a mail.
    expect((await signIn(account.browser, account.email, account.password)).status).toBe(200);
    expect(await settledCount(server, capture, account.email, NEW_DEVICE)).toBe(0);

    // Another browser: one mail, naming it.
    const laptop = server.browser();
    expect((await signIn(laptop, account.email, account.password, FIREFOX)).status).toBe(200);
    const mail = await nthMail(capture, account.email, NEW_DEVICE);
    expect(mail.text).toContain("Firefox 121 on Linux, from the IP address 127.0.0.1");
    expect(mail.text).toContain("Not you? Secure your account");
    expect(linkIn(mail, "/secure-account?token=")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/secure-account\?token=\w+$/);

    // The same browser again, and copies of it signing in at once: no second mail.
    expect((await signIn(laptop, account.email, account.password, FIREFOX)).status).toBe(200);
    const copies = [laptop.copyTo(), laptop.copyTo(), laptop.copyTo()];
    const answers = await Promise.all(copies.map((copy) => signIn(copy, account.email, account.password, FIREFOX)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await settledCount(server, capture, account.email, NEW_DEVICE)).toBe(1);

    // A third browser, asking in German: one more mail, in German.
    expect((await signIn(server.browser(), account.email, account.password, SAFARI, "de")).status).toBe(200);
    const german = await nthMail(capture, account.email, "Neue Anmeldung bei Ihrem Konto");
    expect(german.text).toContain("Safari 17 unter macOS");
    expect(german.text).toContain("Nicht Sie? Konto sichern");
    expect(await settledCount(server, capture, account.email, NEW_DEVICE)).toBe(1);

    // The token is kept only as its hash.
    const token = new URL(linkIn(mail, "/secure-account?token=")).searchParams.get("token") as string;
    const stored = await db()
      .selectFrom("verification")
      .select("identifier")
      .where("value", "=", account.user.id)
      .execute();
    expect(stored.some((row) => row.identifier.startsWith("secure-account:"))).toBe(true);
    expect(stored.some((row) => row.identifier.includes(token))).toBe(false);
  });

  it("is not sent, and nothing is routed, with securityActivity off", async () => {
    const account = await signUp(off, { email: uniqueEmail("off") });
    expect((await signIn(off.browser(), account.email, account.password, FIREFOX)).status).toBe(200);
    expect(await settledCount(off, capture, account.email, NEW_DEVICE)).toBe(0);
    expect((await account.browser.get("/security-activity")).status).toBe(404);
  });
});

describe("Not you? Secure your account", () => {
  it("signs out everywhere, leads to a password reset, and works once", async () => {
    const account = await signUp(server, { email: uniqueEmail("secure") });
    const stranger = server.browser();
    expect((await signIn(stranger, account.email, account.password, FIREFOX)).status).toBe(200);
    const token = new URL(
      linkIn(await nthMail(capture, account.email, NEW_DEVICE), "/secure-account?token="),
    ).searchParams.get("token");
    const owner = server.browser();
    const secured = await owner.post("/secure-account", { token });
    expect(secured.status).toBe(200);
    expect(secured.body).toEqual({ status: true, resetToken: expect.any(String) });
    // Every session ended: the stranger's and the owner's first browser.
    expect(await db().selectFrom("session").select("id").where("userId", "=", account.user.id).execute()).toEqual([]);
    expect((await stranger.get("/get-session")).body).toBeNull();
    expect((await account.browser.get("/get-session")).body).toBeNull();

    // Once only.
    const again = await owner.post("/secure-account", { token });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_TOKEN");
    expect((await owner.post("/secure-account", { token: "not-a-token" })).body.code).toBe("INVALID_TOKEN");

    // The answer's token resets the password (once), and the new password signs in.
    const reset = await owner.post("/reset-password", {
      token: secured.body.resetToken,
      newPassword: "a brand new secret",
    });
    expect(reset.status).toBe(200);
    expect(
      (await owner.post("/reset-password", { token: secured.body.resetToken, newPassword: "yet another one" })).status,
    ).toBe(400);
    expect((await signIn(owner, account.email, "a brand new secret")).status).toBe(200);
    expect((await signIn(server.browser(), account.email, account.password)).status).toBe(401);
  });

  it("refuses bad input with a clear 400", async () => {
    for (const body of [{}, { token: "" }, { token: 42 }, { token: "x".repeat(500) }]) {
      const answer = await server.browser().post("/secure-account", body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });
});

describe("GET /security-activity", () => {
  it("lists the account's recent sign-ins and signed-in devices, with browser, system and IP", async () => {
    const account = await signUp(server, { email: uniqueEmail("activity") });
    const laptop = server.browser();
    expect((await signIn(laptop, account.email, account.password, FIREFOX)).status).toBe(200);
    expect((await signIn(server.browser(), account.email, "wrong password here")).status).toBe(401);
    const activity = await laptop.get("/security-activity");
    expect(activity.status).toBe(200);
    expect(activity.body.signIns[0]).toMatchObject({
      outcome: "success",
      method: "email",
      browser: "Firefox 121",
      os: "Linux",
      ipAddress: "127.0.0.1",
    });
    expect(activity.body.signIns.every((signIn: { outcome: string }) => signIn.outcome !== "failure")).toBe(true);
    expect(activity.body.devices).toHaveLength(2);
    expect(activity.body.devices.find((device: { current: boolean }) => device.current)).toMatchObject({
      browser: "Firefox 121",
      os: "Linux",
      ipAddress: "127.0.0.1",
    });
    // A device's id revokes it.
    const other = activity.body.devices.find((device: { current: boolean }) => !device.current);
    expect((await laptop.post("/revoke-session", { token: other.id })).status).toBe(200);
    expect((await laptop.get("/security-activity")).body.devices).toHaveLength(1);
    expect((await server.browser().get("/security-activity")).status).toBe(401);
  });

  it("says how many backup codes are left: null with two-factor off, one fewer after each is used", async () => {
    const account = await signUp(server, { email: uniqueEmail("codes"), verified: true });
    expect((await account.browser.get("/security-activity")).body.backupCodesRemaining).toBeNull();
    const enabled = await account.browser.post("/two-factor/enable", { password: account.password });
    const { totpURI, backupCodes } = enabled.body as { totpURI: string; backupCodes: string[] };
    // Enrolled but not confirmed: two-factor is still off.
    expect((await account.browser.get("/security-activity")).body.backupCodesRemaining).toBeNull();
    const totp = URI.parse(totpURI) as import("otpauth").TOTP;
    const code = totp.generate({ timestamp: server.clock.now().getTime() });
    expect((await account.browser.post("/two-factor/verify-totp", { code })).status).toBe(200);
    expect((await account.browser.get("/security-activity")).body.backupCodesRemaining).toBe(backupCodes.length);

    const phone = server.browser();
    expect((await signIn(phone, account.email, account.password)).body.twoFactorRedirect).toBe(true);
    expect((await phone.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(200);
    expect((await phone.get("/security-activity")).body.backupCodesRemaining).toBe(backupCodes.length - 1);
  });
});
