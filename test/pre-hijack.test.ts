import { sql } from "kysely";
import { URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIAL_TABLES, NON_CREDENTIAL_USER_TABLES } from "../src/server/store/account-credentials.js";
import type { TestBrowser } from "./helpers/browser.js";
import { refuseWrites } from "./helpers/faults.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { providerOptions, socialFlow } from "./helpers/social.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * Account pre-hijacking (issue 28, item 1): someone registers the victim's address, which nobody has
 * proven, and sets up every way back in. When the victim proves the mailbox and takes the account,
 * all of it must go, in the transaction that takes the proof.
 */
const NOTICE = "Sign-in methods were removed from your account";
let capture: MailCapture;
let oidc: TestOidcProvider;
let server: TestServer;

beforeAll(async () => {
  [capture, oidc] = await Promise.all([startMailCapture(), startOidcProvider()]);
  server = await startTestServer({
    options: {
      magicLink: { enabled: true },
      emailOTP: { enabled: true },
      twoFactor: { enabled: true },
      passkey: { enabled: true },
      // The squatter's sign-up would mail the victim's address a link, one of the three mails an
      // address gets in a window: the proofs below need all three.
      emailVerification: { sendOnSignUp: false },
      user: { changeEmail: { enabled: true } },
      // The squatter's provider account has its own address.
      account: { accountLinking: { allowDifferentEmails: true } },
      socialProviders: { oidc: providerOptions(oidc) },
    },
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

function totpCode(totpURI: string): string {
  const totp = URI.parse(totpURI) as import("otpauth").TOTP;
  return totp.generate({ timestamp: server.clock.now().getTime() });
}

async function passkeySignIn(browser: TestBrowser, device: SoftAuthenticator) {
  const options = await browser.get("/passkey/generate-authenticate-options");
  return browser.post("/passkey/verify-authentication", { response: device.authenticate(options.body) });
}

/**
 * The squatter signs up with the victim's address and adds a passkey, a linked provider account,
 * TOTP (confirmed, with backup codes), a trusted device with its own session, and asks to move the
 * address to their own (the link goes to the squatter's mailbox).
 */
async function registerAsSquatter() {
  const email = uniqueEmail("victim");
  const squatter = await signUp(server, { email });
  const userId = squatter.user.id as string;

  // An unproven account can no longer enrol a factor; accounts set up before that rule, or whose
  // address was marked unproven later, still hold them, and those are what the proof must strip.
  const refused = await squatter.browser.get("/passkey/generate-register-options");
  expect([refused.status, refused.body.code]).toEqual([403, "EMAIL_NOT_VERIFIED"]);
  const markVerified = (emailVerified: boolean) =>
    db().updateTable("user").set({ emailVerified }).where("id", "=", userId).execute();
  await markVerified(true);

  const device = new SoftAuthenticator(new URL(server.origin).hostname, server.origin);
  const options = await squatter.browser.get("/passkey/generate-register-options");
  const registered = await squatter.browser.post("/passkey/verify-registration", {
    response: device.register(options.body),
  });
  expect(registered.status).toBe(200);

  const provider = oidc.addUser();
  const linked = await socialFlow(squatter.browser, oidc, provider.sub, {
    path: "/link-social",
    body: { provider: "oidc", callbackURL: "/settings" },
  });
  expect(linked.callback.headers.get("location")).toBe("/settings");

  const enabled = await squatter.browser.post("/two-factor/enable", { password: squatter.password });
  const { totpURI, backupCodes } = enabled.body as { totpURI: string; backupCodes: string[] };
  expect((await squatter.browser.post("/two-factor/verify-totp", { code: totpCode(totpURI) })).status).toBe(200);
  server.clock.advance(30);

  const trusted = server.browser();
  expect((await trusted.post("/sign-in/email", squatter)).body.twoFactorRedirect).toBe(true);
  const kept = await trusted.post("/two-factor/verify-totp", { code: totpCode(totpURI), trustDevice: true });
  expect(kept.status).toBe(200);
  server.clock.advance(30);

  await markVerified(false);
  const squatterMailbox = uniqueEmail("squatter");
  expect((await squatter.browser.post("/change-email", { newEmail: squatterMailbox })).status).toBe(200);
  const changeLink = linkIn(await nthMail(capture, squatterMailbox, "Verify your new email"), "/verify-email");

  const user = await db().selectFrom("user").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  expect(Boolean(user.twoFactorEnabled)).toBe(true);
  expect(Boolean(user.emailVerified)).toBe(false);
  return { ...squatter, userId, device, provider, totpURI, backupCodes, trusted, changeLink };
}

type Squat = Awaited<ReturnType<typeof registerAsSquatter>>;

/** How the victim proves the mailbox; answers the reply and the password the victim now has, if any. */
const proofs: Record<string, (email: string) => Promise<{ body: any; password: string | null }>> = {
  async "sign-in link"(email) {
    const sent = await server.browser().post("/sign-in/magic-link", { email });
    expect(sent.status).toBe(200);
    const page = linkIn(await nthMail(capture, email, "Your sign-in link"), "/magic-link");
    const token = new URL(page).searchParams.get("token") ?? "";
    const res = await server.browser().post("/magic-link/verify", { token });
    expect(res.status).toBe(200);
    return { body: res.body, password: null };
  },
  async "email code"(email) {
    await server.browser().post("/email-otp/send-verification-otp", { email, type: "sign-in" });
    const code = /\b(\d{6})\b/.exec((await nthMail(capture, email, "Your sign-in code")).text)?.[1] ?? "";
    const res = await server.browser().post("/sign-in/email-otp", { email, otp: code });
    expect(res.status).toBe(200);
    return { body: res.body, password: null };
  },
  async "password reset link"(email) {
    await server.browser().post("/request-password-reset", { email, redirectTo: "/reset" });
    const link = linkIn(await nthMail(capture, email, "Reset your password"), "/reset-password/");
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const password = "the owner's own password";
    const res = await server.browser().post("/reset-password", { newPassword: password, token });
    expect(res.status).toBe(200);
    return { body: res.body, password };
  },
  async "password reset code"(email) {
    await server.browser().post("/forget-password/email-otp", { email });
    const code = /\b(\d{6})\b/.exec((await nthMail(capture, email, "Your password reset code")).text)?.[1] ?? "";
    const password = "the owner's own password";
    const res = await server.browser().post("/email-otp/reset-password", { email, otp: code, password });
    expect(res.status).toBe(200);
    return { body: res.body, password };
  },
};

/** What is left of the squatter's ways in, row by row. */
async function leftovers(userId: string) {
  const count = async (table: "passkey" | "twoFactor" | "twoFactorChallenge" | "session") =>
    (await db().selectFrom(table).select("userId").where("userId", "=", userId).execute()).length;
  const accounts = await db().selectFrom("account").select("providerId").where("userId", "=", userId).execute();
  const pending = await db().selectFrom("verification").select("identifier").where("value", "=", userId).execute();
  return {
    accounts: accounts.map((a) => a.providerId).sort(),
    passkeys: await count("passkey"),
    twoFactor: await count("twoFactor"),
    challenges: await count("twoFactorChallenge"),
    sessions: await count("session"),
    pending: pending.map((p) => p.identifier.split(":")[0]),
  };
}

async function expectSquatterLockedOut(squat: Squat) {
  expect((await squat.browser.get("/get-session")).body).toBeNull();
  expect((await squat.trusted.get("/get-session")).body).toBeNull();
  const withPasskey = await passkeySignIn(server.browser(), squat.device);
  expect(withPasskey.status).toBe(401);
  expect(withPasskey.body.code).toBe("PASSKEY_NOT_FOUND");
  // The trusted browser no longer skips anything: the old password is simply wrong.
  const withPassword = await squat.trusted.post("/sign-in/email", { email: squat.email, password: squat.password });
  expect(withPassword.status).toBe(401);
  // The provider account now signs in as a new user of its own, not as the victim.
  const social = server.browser();
  await socialFlow(social, oidc, squat.provider.sub, { body: { provider: "oidc", callbackURL: "/" } });
  expect((await social.get("/get-session")).body.user.id).not.toBe(squat.userId);
  // The address the squatter asked to move to stays theirs to wish for.
  const moved = await server.browser().get(squat.changeLink);
  expect(moved.headers.get("location") ?? "").toContain("error=");
  const user = await db().selectFrom("user").selectAll().where("id", "=", squat.userId).executeTakeFirstOrThrow();
  expect(user.email).toBe(squat.email);
}

describe("an address registered by someone else, then proven by its owner", () => {
  it.each(Object.keys(proofs))("%s: every credential and session of the squatter goes", async (proof) => {
    const squat = await registerAsSquatter();
    const { body, password } = await proofs[proof]!(squat.email);
    expect(body.credentialsRemoved).toBe(true);

    expect(await leftovers(squat.userId)).toEqual({
      // After a reset, the password is the owner's new one.
      accounts: password ? ["credential"] : [],
      passkeys: 0,
      twoFactor: 0,
      challenges: 0,
      sessions: password ? 0 : 1,
      pending: [],
    });
    const user = await db().selectFrom("user").selectAll().where("id", "=", squat.userId).executeTakeFirstOrThrow();
    expect(Boolean(user.twoFactorEnabled)).toBe(false);
    expect(Boolean(user.emailVerified)).toBe(true);
    await expectSquatterLockedOut(squat);
    // A backup code is no way back either: there is no second step to use it on.
    const owner = password ? await server.browser().post("/sign-in/email", { email: squat.email, password }) : null;
    if (owner) expect(owner.body).toMatchObject({ token: expect.any(String) });

    const notice = await nthMail(capture, squat.email, NOTICE);
    expect(notice.text).toContain("passkeys");
    expect(await settledCount(server, capture, squat.email, NOTICE)).toBe(1);
  });

  it("a fault half-way through leaves everything as it was, and the same link then works", async () => {
    const squat = await registerAsSquatter();
    await server.browser().post("/sign-in/magic-link", { email: squat.email });
    const page = linkIn(await nthMail(capture, squat.email, "Your sign-in link"), "/magic-link");
    const token = new URL(page).searchParams.get("token") ?? "";
    const before = await leftovers(squat.userId);
    const undo = await refuseWrites(server, { table: "passkey", op: "DELETE" });
    try {
      const failed = await server.browser().post("/magic-link/verify", { token });
      expect(failed.status).toBe(500);
    } finally {
      await undo();
    }
    expect(server.loggedErrors.length).toBeGreaterThan(0);
    server.loggedErrors.length = 0;
    expect(await leftovers(squat.userId)).toEqual(before);
    expect(before).toMatchObject({ accounts: ["credential", "oidc"], passkeys: 1, twoFactor: 1 });
    expect((await squat.browser.get("/get-session")).body.user.id).toBe(squat.userId);

    const res = await server.browser().post("/magic-link/verify", { token });
    expect(res.body.credentialsRemoved).toBe(true);
    await expectSquatterLockedOut(squat);
  });

  it("proofs racing for one account: one strips and mails; the others find it proven or their token gone", async () => {
    const squat = await registerAsSquatter();
    const { email } = squat;
    await server.browser().post("/sign-in/magic-link", { email });
    const page = linkIn(await nthMail(capture, email, "Your sign-in link"), "/magic-link");
    const linkToken = new URL(page).searchParams.get("token") ?? "";
    await server.browser().post("/email-otp/send-verification-otp", { email, type: "sign-in" });
    const code = /\b(\d{6})\b/.exec((await nthMail(capture, email, "Your sign-in code")).text)?.[1] ?? "";
    await server.browser().post("/request-password-reset", { email, redirectTo: "/reset" });
    const reset = linkIn(await nthMail(capture, email, "Reset your password"), "/reset-password/");
    const resetToken = new URL(reset).pathname.split("/").pop() ?? "";

    const answers = await Promise.all([
      server.browser().post("/magic-link/verify", { token: linkToken }),
      server.browser().post("/sign-in/email-otp", { email, otp: code }),
      server.browser().post("/reset-password", { newPassword: "the owner's own password", token: resetToken }),
    ]);
    // The winner's strip ends the other pending tokens unless they were already being used.
    for (const answer of answers) {
      if (answer.status !== 200) expect(["INVALID_TOKEN", "INVALID_OTP"]).toContain(answer.body.code);
    }
    expect(answers.filter((a) => a.body.credentialsRemoved === true)).toHaveLength(1);
    const left = await leftovers(squat.userId);
    expect(left).toMatchObject({ passkeys: 0, twoFactor: 0, challenges: 0 });
    expect(left.accounts).not.toContain("oidc");
    expect(await settledCount(server, capture, email, NOTICE)).toBe(1);
    await expectSquatterLockedOut(squat);
  });

  it("says nothing and removes nothing when the address was already proven", async () => {
    const email = uniqueEmail("proven");
    await proofs["email code"]!(email);
    const { body } = await proofs["sign-in link"]!(email);
    expect(body.credentialsRemoved).toBeUndefined();
    expect(await settledCount(server, capture, email, NOTICE)).toBe(0);
  });
});

describe("verifying the address (the link or code mailed at sign-up)", () => {
  it("keeps the password chosen at sign-up but drops factors added before the proof", async () => {
    const squat = await registerAsSquatter();
    const email = squat.email;
    await server.browser().post("/email-otp/send-verification-otp", { email, type: "email-verification" });
    const code = /\b(\d{6})\b/.exec((await nthMail(capture, email, "Your verification code")).text)?.[1] ?? "";
    const res = await server.browser().post("/email-otp/verify-email", { email, otp: code });
    expect(res.status).toBe(200);
    const left = await leftovers(squat.userId);
    expect(left).toMatchObject({ accounts: ["credential"], passkeys: 0, twoFactor: 0, challenges: 0 });
    expect(left.pending).toEqual([]);
    expect((await passkeySignIn(server.browser(), squat.device)).status).toBe(401);
    expect(await settledCount(server, capture, squat.email, NOTICE)).toBe(1);
    // The password still signs in, now with no second step.
    const signIn = await server.browser().post("/sign-in/email", { email: squat.email, password: squat.password });
    expect(signIn.body).toMatchObject({ token: expect.any(String) });
  });
});

describe("an owner who clicked a squatter's verification mail, then resets the password", () => {
  it.each(["password reset link", "password reset code"])(
    "%s: the passkey the squatter added after the click goes, and the owner is told",
    async (proof) => {
      const email = uniqueEmail("clicked");
      const squatter = await signUp(server, { email });
      const userId = squatter.user.id as string;
      // The owner confirms a sign-up they did not make: the squatter's password and session stay.
      await server.browser().post("/email-otp/send-verification-otp", { email, type: "email-verification" });
      const code = /\b(\d{6})\b/.exec((await nthMail(capture, email, "Your verification code")).text)?.[1] ?? "";
      expect((await server.browser().post("/email-otp/verify-email", { email, otp: code })).status).toBe(200);
      const device = new SoftAuthenticator(new URL(server.origin).hostname, server.origin);
      const options = await squatter.browser.get("/passkey/generate-register-options");
      const registered = await squatter.browser.post("/passkey/verify-registration", {
        response: device.register(options.body),
      });
      expect(registered.status).toBe(200);
      expect((await passkeySignIn(server.browser(), device)).status).toBe(200);

      const { password } = await proofs[proof]!(email);
      expect(await leftovers(userId)).toMatchObject({ accounts: ["credential"], passkeys: 0, sessions: 0 });
      const withPasskey = await passkeySignIn(server.browser(), device);
      expect([withPasskey.status, withPasskey.body.code]).toEqual([401, "PASSKEY_NOT_FOUND"]);
      expect((await squatter.browser.get("/get-session")).body).toBeNull();
      expect((await server.browser().post("/sign-in/email", { email, password })).status).toBe(200);
      await nthMail(capture, email, "A passkey was removed from your account");

      // A passkey the owner adds after the reset is theirs: a later sign-in with it works.
      const owner = server.browser();
      await owner.post("/sign-in/email", { email, password });
      const own = new SoftAuthenticator(new URL(server.origin).hostname, server.origin);
      const ownOptions = await owner.get("/passkey/generate-register-options");
      expect(
        (await owner.post("/passkey/verify-registration", { response: own.register(ownOptions.body) })).status,
      ).toBe(200);
      expect((await passkeySignIn(server.browser(), own)).status).toBe(200);
    },
  );
});

describe("every table that references a user is classified", () => {
  it("as a credential the strip removes, or as something the account keeps", async () => {
    const { dialect } = server.auth.database;
    const rows =
      dialect === "sqlite"
        ? await sql<{ name: string }>`
            SELECT DISTINCT m.name AS name FROM sqlite_master m, pragma_foreign_key_list(m.name) f
            WHERE m.type = 'table' AND f."table" = 'user'`.execute(db())
        : await sql<{ name: string }>`
            SELECT DISTINCT c.conrelid::regclass::text AS name FROM pg_constraint c
            WHERE c.contype = 'f' AND c.confrelid = '"user"'::regclass`.execute(db());
    const referencing = rows.rows.map((r) => r.name.replaceAll('"', "")).sort();
    const classified = new Set<string>([...CREDENTIAL_TABLES, ...NON_CREDENTIAL_USER_TABLES]);
    expect(referencing.filter((name) => !classified.has(name))).toEqual([]);
    expect(referencing).toEqual(expect.arrayContaining([...CREDENTIAL_TABLES]));
  });
});
