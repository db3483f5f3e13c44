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
    expect((await signIn(server.browser(), account.email, "wrong password here")).status).toBe(401);
    expect((await signIn(laptop, account.email, account.password, FIREFOX)).status).toBe(200);
    const activity = await laptop.get("/security-activity");
    expect(activity.status).toBe(200);
    expect(activity.body.signIns[0]).toMatchObject({
      outcome: "success",
      method: "email",
      browser: "Firefox 121",
      os: "Linux",
      ipAddress: "127.0.0.1",
    });
    expect(activity.body.signIns[0].outcome).toBe("success");
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

describe("refused sign-ins in the account's activity", () => {
  it("shows a wrong password for the account as refused, with device, IP and time, and answers as before", async () => {
    const account = await signUp(server, { email: uniqueEmail("refused") });
    const before = Date.now();
    const wrong = await signIn(server.browser(), account.email, "wrong password here", FIREFOX);
    const unknown = await signIn(server.browser(), uniqueEmail("nobody"), "wrong password here", FIREFOX);
    // The caller learns nothing: the same answer whether or not the account exists.
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(Object.keys(wrong.headers).sort()).toEqual(Object.keys(unknown.headers).sort());

    const activity = await account.browser.get("/security-activity");
    expect(activity.status).toBe(200);
    const refused = activity.body.signIns.filter((signIn: { outcome: string }) => signIn.outcome === "failure");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ method: "email", browser: "Firefox 121", os: "Linux", ipAddress: "127.0.0.1" });
    expect(new Date(refused[0].at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // The refusal names the account it tried, not as its actor: whoever typed the password is unknown.
    const entries = await db()
      .selectFrom("auditTrail")
      .select(["actorId", "subjectId", "outcome"])
      .where("subjectId", "=", account.user.id)
      .where("outcome", "=", "failure")
      .execute();
    expect(entries).toEqual([{ actorId: null, subjectId: account.user.id, outcome: "failure" }]);
  });
  it("keeps the account's own sign-ins in view however many wrong passwords someone tries", async () => {
    const account = await signUp(server, { email: uniqueEmail("flooded") });
    expect((await signIn(account.browser, account.email, account.password, FIREFOX)).status).toBe(200);
    // More refusals than the list's length, each after the brake's wait.
    for (let attempt = 0; attempt < 25; attempt += 1) {
      server.clock.advance(15 * 60 + 1);
      expect((await signIn(server.browser(), account.email, `wrong password ${attempt}`)).status).toBe(401);
    }
    const { signIns } = (await account.browser.get("/security-activity")).body as {
      signIns: { outcome: string; browser: string; at: string }[];
    };
    const successes = signIns.filter((entry) => entry.outcome === "success");
    expect(successes.map((entry) => entry.browser)).toContain("Firefox 121");
    expect(signIns.filter((entry) => entry.outcome === "failure").length).toBeGreaterThan(0);
    // Newest first, whatever their outcome.
    const times = signIns.map((entry) => new Date(entry.at).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe("sign-ins through auth.api", () => {
  it("note the device of the forwarded headers as an HTTP sign-in does", async () => {
    const account = await signUp(server, { email: uniqueEmail("server-device") });
    const call = (cookie?: string) =>
      server.auth.api.signInEmail({
        body: { email: account.email, password: account.password },
        headers: { "user-agent": FIREFOX, ...(cookie ? { cookie } : {}) },
        returnHeaders: true,
      });
    const first = await call();
    // The device cookie comes back for the app to hand on, as it hands on the session cookie.
    const setCookies = first.headers.getSetCookie();
    const device = setCookies.find((cookie) => cookie.includes("device="));
    expect(device).toBeDefined();
    const mail = await nthMail(capture, account.email, NEW_DEVICE);
    expect(mail.text).toContain("Firefox 121 on Linux");

    const known = await db()
      .selectFrom("knownDevice")
      .select(["userAgent"])
      .where("userId", "=", account.user.id)
      .execute();
    // The sign-up's device (the test client's agent) and the server-side sign-in's.
    expect(known.map((row) => row.userAgent)).toHaveLength(2);
    expect(known.map((row) => row.userAgent)).toContain(FIREFOX);

    // The same device again (its cookie forwarded): seen, no second mail.
    await call(device!.split(";")[0]);
    expect(await settledCount(server, capture, account.email, NEW_DEVICE)).toBe(1);
    const activity = await account.browser.get("/security-activity");
    expect(activity.body.signIns.slice(0, 2)).toMatchObject([
      { outcome: "success", browser: "Firefox 121", os: "Linux" },
      { outcome: "success", browser: "Firefox 121", os: "Linux" },
    ]);
  });
});
