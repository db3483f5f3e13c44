import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../src/server/crypto/digest.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const RESET = "Reset your password";
const CHANGED = "Your password was changed";
const RESET_ANSWER = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
};

let capture: MailCapture;
let server: TestServer;
/** revokeSessionsOnPasswordReset off. */
let keepSessions: TestServer;
/** emailAndPassword.sendResetPassword off. */
let noReset: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  server = await startTestServer({ extra });
  keepSessions = await startTestServer({
    options: { emailAndPassword: { revokeSessionsOnPasswordReset: false } },
    extra,
  });
  noReset = await startTestServer({ options: { emailAndPassword: { sendResetPassword: false } }, extra });
});
afterAll(async () => {
  await Promise.all([server.close(), keepSessions.close(), noReset.close()]);
  await capture.close();
});
afterEach(() => {
  for (const s of [server, keepSessions, noReset]) expect(s.loggedErrors).toEqual([]);
});

/**
 * Requests a reset for a new user whose address is proven and returns the token from the mailed link
 * (a reset of an unproven account strips it first: test/pre-hijack.test.ts).
 */
async function resetTokenFor(target: TestServer, redirectTo = "/reset") {
  const account = await signUp(target, { email: uniqueEmail("reset") });
  await target.auth.database.db
    .updateTable("user")
    .set({ emailVerified: true })
    .where("id", "=", account.user.id)
    .execute();
  const res = await target.browser().post("/request-password-reset", { email: account.email, redirectTo });
  expect(res.body).toEqual(RESET_ANSWER);
  const link = linkIn(await nthMail(capture, account.email, RESET), "/reset-password/");
  const token = new URL(link).pathname.split("/").pop() ?? "";
  return { ...account, link, token };
}

describe("password reset", () => {
  it("answers known and unknown emails alike and mails only the known one", async () => {
    const { email } = await signUp(server, { email: uniqueEmail("known") });
    const unknown = uniqueEmail("unknown");
    const [known, missing] = await Promise.all([
      server.browser().post("/request-password-reset", { email }),
      server.browser().post("/forget-password", { email: unknown }),
    ]);
    expect([known.status, missing.status]).toEqual([200, 200]);
    expect(known.body).toEqual(RESET_ANSWER);
    expect(missing.body).toEqual(RESET_ANSWER);
    expect(known.headers.get("content-length")).toBe(missing.headers.get("content-length"));
    await nthMail(capture, email, RESET);
    expect(await settledCount(server, capture, unknown, RESET)).toBe(0);
  });

  it("mails an absolute single-use link whose token is stored only as a digest", async () => {
    const { link, token, user } = await resetTokenFor(server);
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(link).toBe(`${server.origin}/api/auth/reset-password/${token}?callbackURL=%2Freset`);
    const rows = await server.auth.database.db
      .selectFrom("verification")
      .selectAll()
      .where("value", "=", user.id)
      .execute();
    expect(rows.map((r) => r.identifier)).toEqual([`reset-password:${sha256Base64Url(token)}`]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("follows the link, sets the new password, revokes sessions and tells the owner", async () => {
    const { browser, email, link, token } = await resetTokenFor(server);
    const followed = await server.browser().get(link);
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe(`${server.origin}/reset?token=${token}`);

    const res = await server.browser().post("/reset-password", { newPassword: "brand new password", token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(res.setCookies).toEqual([]);
    expect((await browser.get("/get-session")).body).toBeNull();

    const notice = await nthMail(capture, email, CHANGED);
    expect(notice.links).toEqual([]);
    const oldPassword = await server.browser().post("/sign-in/email", { email, password: "correct horse battery" });
    expect(oldPassword.status).toBe(401);
    const newPassword = await server.browser().post("/sign-in/email", { email, password: "brand new password" });
    expect(newPassword.status).toBe(200);

    const reuse = await server.browser().post("/reset-password", { newPassword: "another password", token });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect((await server.browser().get(link)).headers.get("location")).toBe(
      `${server.origin}/reset?error=INVALID_TOKEN`,
    );
  });

  it("lets exactly one of two racing uses of a token win", async () => {
    const { token } = await resetTokenFor(server);
    const results = await Promise.all(
      ["racing password one", "racing password two"].map((newPassword) =>
        server.browser().post("/reset-password", { newPassword, token }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("expires the token after resetPasswordTokenExpiresIn", async () => {
    const { link, token } = await resetTokenFor(server, "/r");
    server.clock.advance(3601);
    expect((await server.browser().get(link)).headers.get("location")).toBe(`${server.origin}/r?error=INVALID_TOKEN`);
    const res = await server.browser().post("/reset-password", { newPassword: "late password", token });
    expect(res.body.code).toBe("INVALID_TOKEN");
  });

  it("checks the new password's length before using up the token, and takes the token from the query", async () => {
    const { email, token } = await resetTokenFor(server);
    const short = await server.browser().post("/reset-password", { newPassword: "short", token });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
    const long = await server.browser().post("/reset-password", { newPassword: "x".repeat(129), token });
    expect(long.body.code).toBe("PASSWORD_TOO_LONG");
    const viaQuery = await server.browser().post(`/reset-password?token=${token}`, { newPassword: "query password" });
    expect(viaQuery.status).toBe(200);
    expect((await server.browser().post("/sign-in/email", { email, password: "query password" })).status).toBe(200);
  });

  it("gives a user without a credential password one", async () => {
    const { email, token, user } = await resetTokenFor(server);
    await server.auth.database.db.deleteFrom("account").where("userId", "=", user.id).execute();
    expect((await server.browser().post("/reset-password", { newPassword: "first password", token })).status).toBe(200);
    expect((await server.browser().post("/sign-in/email", { email, password: "first password" })).status).toBe(200);
  });

  it("keeps sessions when revokeSessionsOnPasswordReset is off", async () => {
    const { browser, token } = await resetTokenFor(keepSessions);
    expect((await keepSessions.browser().post("/reset-password", { newPassword: "kept password", token })).status).toBe(
      200,
    );
    expect((await browser.get("/get-session")).body).not.toBeNull();
  });

  it("refuses bad input with clear codes", async () => {
    const cases: [string, unknown, number, string][] = [
      ["/request-password-reset", { email: "nope" }, 400, "INVALID_EMAIL"],
      ["/request-password-reset", {}, 400, "VALIDATION_ERROR"],
      [
        "/request-password-reset",
        { email: "a@example.com", redirectTo: "https://evil.example/" },
        403,
        "INVALID_REDIRECT_URL",
      ],
      ["/reset-password", { newPassword: "long enough password" }, 400, "INVALID_TOKEN"],
      ["/reset-password", { newPassword: "long enough password", token: "unknowntoken" }, 400, "INVALID_TOKEN"],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await server.browser().post(path, body);
      expect([path, res.status, res.body.code]).toEqual([path, status, code]);
    }
    const noCallback = await server.browser().get("/reset-password/sometoken");
    expect(noCallback.status).toBe(400);
    expect(noCallback.body.code).toBe("VALIDATION_ERROR");
    const untrusted = await server.browser().get("/reset-password/sometoken?callbackURL=https%3A%2F%2Fevil.example%2F");
    expect(untrusted.body.code).toBe("INVALID_CALLBACK_URL");
  });

  it("answers RESET_PASSWORD_DISABLED when sendResetPassword is off", async () => {
    const { email } = await signUp(noReset);
    const res = await noReset.browser().post("/request-password-reset", { email });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "RESET_PASSWORD_DISABLED", message: "Reset password isn't enabled" });
    expect(await settledCount(noReset, capture, email, RESET)).toBe(0);
  });
});

describe("POST /change-password", () => {
  it("changes the password, keeps other sessions, and tells the owner", async () => {
    const { browser, email, password } = await signUp(server, { email: uniqueEmail("change") });
    const other = server.browser();
    await other.post("/sign-in/email", { email, password });
    const res = await browser.post("/change-password", { currentPassword: password, newPassword: "changed password" });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeNull();
    expect(res.body.user.email).toBe(email);
    expect((await other.get("/get-session")).body).not.toBeNull();
    await nthMail(capture, email, CHANGED);
    expect((await server.browser().post("/sign-in/email", { email, password: "changed password" })).status).toBe(200);
  });

  it("with revokeOtherSessions ends every session and hands this browser a new one", async () => {
    const { browser, email, password, token: oldToken } = await signUp(server);
    const other = server.browser();
    await other.post("/sign-in/email", { email, password });
    const res = await browser.post("/change-password", {
      currentPassword: password,
      newPassword: "changed password",
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.token).not.toBe(oldToken);
    expect((await other.get("/get-session")).body).toBeNull();
    expect((await browser.get("/get-session")).body.session.token).toBe(res.body.token);
  });

  it("refuses a wrong current password, a bad new one, a missing session and a user without a password", async () => {
    const { browser, password, user } = await signUp(server);
    const wrong = await browser.post("/change-password", {
      currentPassword: "wrong password",
      newPassword: "new password",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    const same = await browser.post("/change-password", { currentPassword: password, newPassword: password });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({
      code: "NEW_PASSWORD_SAME_AS_CURRENT",
      message: "The new password must differ from the current one",
    });
    expect((await browser.get("/get-session")).body).not.toBeNull();
    const short = await browser.post("/change-password", { currentPassword: password, newPassword: "short" });
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
    const anonymous = await server
      .browser()
      .post("/change-password", { currentPassword: password, newPassword: "x".repeat(10) });
    expect(anonymous.status).toBe(401);
    await server.auth.database.db.deleteFrom("account").where("userId", "=", user.id).execute();
    const none = await browser.post("/change-password", { currentPassword: password, newPassword: "new password" });
    expect(none.body).toEqual({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" });
  });
});

describe("POST /verify-password and setPassword", () => {
  it("verifies the caller's password", async () => {
    const { browser, password } = await signUp(server);
    expect((await browser.post("/verify-password", { password })).body).toEqual({ status: true });
    const wrong = await browser.post("/verify-password", { password: "wrong password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_PASSWORD");
    expect((await server.browser().post("/verify-password", { password })).status).toBe(401);
  });

  it("is not an HTTP route; the server API sets a first password only", async () => {
    const { browser, email, user } = await signUp(server);
    const http = await browser.post("/set-password", { newPassword: "some password" });
    expect(http.status).toBe(404);
    expect(http.body).toBeNull();

    await expect(
      server.auth.api.setPassword({ body: { userId: user.id, newPassword: "some password" } }),
    ).rejects.toMatchObject({
      code: "USER_ALREADY_HAS_PASSWORD",
      message: "user already has a password",
    });
    await server.auth.database.db.deleteFrom("account").where("userId", "=", user.id).execute();
    await expect(
      server.auth.api.setPassword({ body: { userId: user.id, newPassword: "short" } }),
    ).rejects.toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    await expect(
      server.auth.api.setPassword({ body: { userId: user.id, newPassword: "first password" } }),
    ).resolves.toEqual({ status: true });
    expect((await server.browser().post("/sign-in/email", { email, password: "first password" })).status).toBe(200);
    await expect(
      server.auth.api.setPassword({ body: { userId: "no-such-user", newPassword: "first password" } }),
    ).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
    });
  });
});

describe("mail during an SMTP outage", () => {
  it("keeps a reset mail while SMTP is down and delivers a working link once it is back", async () => {
    const probe = await startMailCapture();
    const port = probe.port;
    await probe.close(); // nothing listens on this port for now
    // The retry is found by the outbox poll, as it would be in production.
    const down = await startTestServer({
      extra: { mail: { smtpUrl: `smtp://127.0.0.1:${port}`, retryBaseMs: 20, pollIntervalMs: 50 } },
    });
    try {
      const { email } = await signUp(down, { email: uniqueEmail("outage") });
      expect((await down.browser().post("/request-password-reset", { email })).body).toEqual(RESET_ANSWER);
      await down.auth.context.mail.flush();
      const [entry] = await down.auth.context.mail.list();
      expect(entry).toMatchObject({ kind: "reset-password", to: email, sentAt: null });
      expect(entry?.attempts).toBeGreaterThanOrEqual(1);
      expect(entry?.lastError).toBeTruthy();

      const back = await startMailCapture(port);
      try {
        const link = linkIn(await nthMail(back, email, RESET), "/reset-password/");
        const followed = await down.browser().get(link);
        expect(followed.headers.get("location")).toMatch(/\/reset-password\?token=[A-Za-z0-9]{24}$/);
        expect(down.loggedErrors).toEqual([]);
      } finally {
        await back.close();
      }
    } finally {
      await down.close();
    }
  });
});

describe("rate limits on the password routes", () => {
  it("allows 3 reset requests a minute and 3 password checks per 10 s from one client", async () => {
    const limited = await startTestServer({ options: { rateLimit: { enabled: true } } });
    try {
      const { browser, password } = await signUp(limited);
      const resets = [];
      for (let i = 0; i < 4; i++)
        resets.push((await browser.post("/forget-password", { email: "x@example.com" })).status);
      expect(resets).toEqual([200, 200, 200, 429]);
      const checks = [];
      for (let i = 0; i < 4; i++) checks.push((await browser.post("/verify-password", { password })).status);
      expect(checks).toEqual([200, 200, 200, 429]);
      expect(limited.loggedErrors).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe("common passwords (ASVS 2.1.7)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("are refused with PASSWORD_TOO_COMMON at sign-up, change, reset and an admin's set-password, in any case", async () => {
    const code = async (res: Promise<{ status: number; body: any }>) => {
      const r = await res;
      return `${r.status} ${r.body?.code}`;
    };
    const expected = "400 PASSWORD_TOO_COMMON";
    const fresh = () => `common-${Math.random().toString(36).slice(2)}@example.com`;
    expect(
      await code(server.browser().post("/sign-up/email", { name: "C", email: fresh(), password: "password1" })),
    ).toBe(expected);
    expect(
      await code(server.browser().post("/sign-up/email", { name: "C", email: fresh(), password: "QWERTYUIOP" })),
    ).toBe(expected);
    const { browser, password, user } = await signUp(server);
    expect(await code(browser.post("/change-password", { currentPassword: password, newPassword: "iloveyou" }))).toBe(
      expected,
    );
    expect(await code(browser.post("/reset-password", { token: "any", newPassword: "baseball" }))).toBe(expected);
    const admin = await signUp(server);
    await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
    expect(
      await code(admin.browser.post("/admin/set-user-password", { userId: user.id, newPassword: "trustno1" })),
    ).toBe(expected);
    // An uncommon password of the same length is fine.
    expect(
      (await browser.post("/change-password", { currentPassword: password, newPassword: "q7-harbor-kiln" })).status,
    ).toBe(200);
  });
});
