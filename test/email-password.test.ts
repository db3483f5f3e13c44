import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseSetCookie } from "./helpers/browser.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("POST /sign-up/email", () => {
  it("creates the user, signs them in and sets a signed HttpOnly session cookie", async () => {
    const browser = server.browser();
    const res = await browser.post("/sign-up/email", {
      name: "Ann",
      email: "Ann@Example.COM",
      password: "sturdy-pass-123",
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: "Ann", email: "ann@example.com", emailVerified: false, image: null });
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    const cookie = parseSetCookie(res.setCookies.find((l) => l.startsWith("gatehouse.session_token="))!);
    expect(decodeURIComponent(cookie.value)).toMatch(new RegExp(`^${res.body.token}\\.[A-Za-z0-9+/]{43}=$`));
    expect(cookie.attributes).toMatchObject({ path: "/", httponly: true, samesite: "Lax", "max-age": "604800" });
    expect(cookie.attributes.secure).toBeUndefined();

    const session = await browser.get("/get-session");
    expect(session.body.user.email).toBe("ann@example.com");
  });

  it("stores the session token only as a digest and the password as argon2id", async () => {
    const { token, user } = await signUp(server);
    const db = server.auth.database.db;
    const sessions = await db.selectFrom("session").selectAll().where("userId", "=", user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(JSON.stringify(sessions)).not.toContain(token);
    const account = await db.selectFrom("account").selectAll().where("userId", "=", user.id).executeTakeFirstOrThrow();
    expect(account.providerId).toBe("credential");
    expect(account.accountId).toBe(user.id);
    expect(account.password).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=1\$/);
  });

  it("refuses a taken email, in any letter case, with 422", async () => {
    const { email } = await signUp(server);
    const res = await server
      .browser()
      .post("/sign-up/email", { name: "B", email: email.toUpperCase(), password: "sturdy-pass-123" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      message: "User already exists. Use another email.",
    });
  });

  it("creates exactly one user when the same email signs up in parallel", async () => {
    const email = `race-${Date.now()}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.browser().post("/sign-up/email", { name: "R", email, password: "sturdy-pass-123" }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(7);
    const users = await server.auth.database.db.selectFrom("user").select("id").where("email", "=", email).execute();
    expect(users).toHaveLength(1);
  });

  it.each([
    [{ name: "A", email: "not-an-email", password: "sturdy-pass-123" }, 400, "INVALID_EMAIL"],
    [{ name: "A", email: "a@example.com", password: "short" }, 400, "PASSWORD_TOO_SHORT"],
    [{ name: "A", email: "a@example.com", password: "x".repeat(129) }, 400, "PASSWORD_TOO_LONG"],
    [{ email: "a@example.com", password: "sturdy-pass-123" }, 400, "VALIDATION_ERROR"],
    [{ name: 5, email: "a@example.com", password: "sturdy-pass-123" }, 400, "VALIDATION_ERROR"],
  ])("refuses %j with %i %s and creates nothing", async (body, status, code) => {
    const before = await server.auth.database.db
      .selectFrom("user")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const res = await server.browser().post("/sign-up/email", body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(typeof res.body.message).toBe("string");
    const after = await server.auth.database.db
      .selectFrom("user")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("accepts exactly the configured bounds: 8 and 128 characters", async () => {
    const ok8 = await server
      .browser()
      .post("/sign-up/email", { name: "A", email: "b8@example.com", password: "x".repeat(8) });
    const ok128 = await server
      .browser()
      .post("/sign-up/email", { name: "A", email: "b128@example.com", password: "x".repeat(128) });
    const short7 = await server
      .browser()
      .post("/sign-up/email", { name: "A", email: "b7@example.com", password: "x".repeat(7) });
    expect([ok8.status, ok128.status, short7.status]).toEqual([200, 200, 400]);
  });

  it("names the validation problem without echoing the input", async () => {
    const res = await server
      .browser()
      .post("/sign-up/email", { name: "A", email: "a@example.com", password: 12345678 });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("[body.password]");
    expect(res.body.message).not.toContain("12345678");
  });

  it("gives rememberMe:false a browser-session cookie and a dont_remember marker", async () => {
    const res = await server.browser().post("/sign-up/email", {
      name: "A",
      email: "forget-me@example.com",
      password: "sturdy-pass-123",
      rememberMe: false,
    });
    const token = parseSetCookie(res.setCookies.find((l) => l.startsWith("gatehouse.session_token="))!);
    expect(token.attributes["max-age"]).toBeUndefined();
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.dont_remember="))).toBe(true);
  });

  it("takes an HTML form post", async () => {
    const res = await server.browser().request("/sign-up/email", {
      form: { name: "Form", email: "form@example.com", password: "sturdy-pass-123" },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe("form@example.com");
  });
});

describe("POST /sign-in/email", () => {
  it("signs in with the right password, returning redirect, token and user", async () => {
    const { email, password } = await signUp(server);
    const browser = server.browser();
    const res = await browser.post("/sign-in/email", { email: email.toUpperCase(), password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ redirect: false, user: { email } });
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect("url" in res.body).toBe(false);
    expect((await browser.get("/get-session")).body.user.email).toBe(email);
  });

  it("answers a callbackURL with url, redirect:true and a Location header on a 200", async () => {
    const { email, password } = await signUp(server);
    const res = await server.browser().post("/sign-in/email", { email, password, callbackURL: "/dashboard" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ redirect: true, url: "/dashboard" });
    expect(res.headers.get("location")).toBe("/dashboard");
  });

  it("answers an unknown email and a wrong password with the same 401", async () => {
    const { email } = await signUp(server);
    const wrong = await server.browser().post("/sign-in/email", { email, password: "wrong password" });
    const unknown = await server
      .browser()
      .post("/sign-in/email", { email: "nobody@example.com", password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.setCookies).toEqual([]);
  });

  it("refuses a malformed email with INVALID_EMAIL and an over-long password with PASSWORD_TOO_LONG", async () => {
    const bad = await server.browser().post("/sign-in/email", { email: "nope", password: "sturdy-pass-123" });
    expect([bad.status, bad.body.code]).toEqual([400, "INVALID_EMAIL"]);
    const long = await server.browser().post("/sign-in/email", { email: "a@example.com", password: "x".repeat(129) });
    expect([long.status, long.body.code]).toEqual([400, "PASSWORD_TOO_LONG"]);
  });

  it("rehashes a password stored with other parameters on the next sign-in", async () => {
    const { email, password, user } = await signUp(server);
    const db = server.auth.database.db;
    // A hash in better-auth's scrypt format, as an imported user would have.
    const { scryptSync } = await import("node:crypto");
    const salt = "00112233445566778899aabbccddeeff";
    const key = scryptSync(password.normalize("NFKC"), salt, 64, {
      N: 16384,
      r: 16,
      p: 1,
      maxmem: 128 * 16384 * 16 * 2,
    });
    await db
      .updateTable("account")
      .set({ password: `${salt}:${key.toString("hex")}` })
      .where("userId", "=", user.id)
      .execute();

    const res = await server.browser().post("/sign-in/email", { email, password });
    expect(res.status).toBe(200);
    const account = await db
      .selectFrom("account")
      .select("password")
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(account.password).toMatch(/^\$argon2id\$/);
  });

  it("signs an imported user in with a bcrypt hash made elsewhere, and replaces it with argon2id", async () => {
    const { email, password, user } = await signUp(server);
    const db = server.auth.database.db;
    const bcrypt = await (await import("bcryptjs")).default.hash(password, 4);
    await db.updateTable("account").set({ password: bcrypt }).where("userId", "=", user.id).execute();

    const wrong = await server.browser().post("/sign-in/email", { email, password: `${password}x` });
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
    const stored = () =>
      db.selectFrom("account").select("password").where("userId", "=", user.id).executeTakeFirstOrThrow();
    expect((await stored()).password).toBe(bcrypt);
    expect((await server.browser().post("/sign-in/email", { email, password })).status).toBe(200);
    expect((await stored()).password).toMatch(/^\$argon2id\$/);
  });
});

describe("weak imported hashes refused by option", () => {
  it("refuses a salted SHA-256 hash with refuseWeak, so its user resets instead", async () => {
    const strict = await startTestServer({ options: { emailAndPassword: { legacyHashes: { refuseWeak: true } } } });
    try {
      const { email, password, user } = await signUp(strict);
      const { createHash } = await import("node:crypto");
      const weak = `$sha256$sp$NaCl$${createHash("sha256").update(`NaCl${password}`).digest("hex")}`;
      await strict.auth.database.db
        .updateTable("account")
        .set({ password: weak })
        .where("userId", "=", user.id)
        .execute();
      const res = await strict.browser().post("/sign-in/email", { email, password });
      expect([res.status, res.body.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
    } finally {
      await strict.close();
    }
  });
});

describe("disabled email and password", () => {
  it("refuses sign-up and sign-in with their codes", async () => {
    const off = await startTestServer({ options: { emailAndPassword: { enabled: false } } });
    try {
      const up = await off
        .browser()
        .post("/sign-up/email", { name: "A", email: "a@example.com", password: "sturdy-pass-123" });
      expect([up.status, up.body.code]).toEqual([400, "EMAIL_PASSWORD_SIGN_UP_DISABLED"]);
      const inn = await off.browser().post("/sign-in/email", { email: "a@example.com", password: "sturdy-pass-123" });
      expect([inn.status, inn.body]).toEqual([
        400,
        { code: "EMAIL_PASSWORD_DISABLED", message: "Email and password is not enabled" },
      ]);
    } finally {
      await off.close();
    }
  });

  it("answers a taken email like a new one when sign-up does not sign in (no enumeration)", async () => {
    const quiet = await startTestServer({ options: { emailAndPassword: { requireEmailVerification: true } } });
    try {
      const body = { name: "A", email: "quiet@example.com", password: "sturdy-pass-123" };
      const first = await quiet.browser().post("/sign-up/email", body);
      const second = await quiet.browser().post("/sign-up/email", body);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(first.body.token).toBeNull();
      expect(second.body.token).toBeNull();
      expect(Object.keys(second.body.user).sort()).toEqual(Object.keys(first.body.user).sort());
      expect(second.body.user.id).not.toBe(first.body.user.id);

      const signIn = await quiet.browser().post("/sign-in/email", { email: body.email, password: body.password });
      expect([signIn.status, signIn.body.code]).toEqual([403, "EMAIL_NOT_VERIFIED"]);
    } finally {
      await quiet.close();
    }
  });
});
