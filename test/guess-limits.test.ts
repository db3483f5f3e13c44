import { URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RECIPIENT_CAP } from "../src/server/email/outbox.js";
import { FREE_FAILURES } from "../src/server/services/sign-in-throttle.js";
import type { TestBrowser, TestResponse } from "./helpers/browser.js";
import { PARALLEL_REQUESTS } from "./helpers/burst.js";
import { uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// Every guess limit holds under parallel requests: each attempt is claimed before its secret is
// checked, so a burst of guesses fired at once gets no more checks than the limit allows.

/** Guesses fired at once at one secret, over real HTTP. */
const BURST = PARALLEL_REQUESTS;
/** Wrong codes one two-factor challenge takes (services/two-factor.ts). */
const CHALLENGE_ATTEMPTS = 5;
/** emailOTP.allowedAttempts's default. */
const OTP_ATTEMPTS = 3;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    options: {
      twoFactor: { enabled: true, otp: { enabled: true } },
      emailOTP: { enabled: true },
      magicLink: { enabled: true },
    },
  });
  // Opens the connections a burst rides on, so the first burst's requests arrive together too.
  await burst(
    server.browser(),
    "/sign-in/email",
    Array.from({ length: BURST }, (_, i) => ({ email: `warm-${i}@example.com`, password: "not a password" })),
  );
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

interface Answer {
  status: number;
  code: string | undefined;
}

/** Fires every body at once at one route; the answers in the same order. */
async function burst(browser: TestBrowser, path: string, bodies: object[]): Promise<Answer[]> {
  const responses = await Promise.all(bodies.map((body) => browser.post(path, body)));
  return responses.map((res) => ({ status: res.status, code: res.body?.code }));
}

/** The answers that mean the secret was looked at: it was right (2xx) or said to be wrong. */
const checked = (answers: Answer[], wrong: string) =>
  answers.filter((a) => (a.status >= 200 && a.status < 300) || a.code === wrong);

/** `count` distinct six-digit codes, none of them `right`, with `right` last. */
function guessesEndingWith(right: string, count = BURST): string[] {
  const wrong = Array.from({ length: count + 1 }, (_, i) => String(100000 + i * 7)).filter((c) => c !== right);
  return [...wrong.slice(0, count - 1), right];
}

/** The six-digit code in the latest mail of `kind` to `to`. */
async function mailedCode(to: string, kind: string): Promise<string> {
  const mail = await db()
    .selectFrom("outbox")
    .select("text")
    .where("to", "=", to)
    .where("kind", "=", kind)
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
}

function codeFor(totpURI: string): string {
  const totp = URI.parse(totpURI) as import("otpauth").TOTP;
  return totp.generate({ timestamp: server.clock.now().getTime() });
}

/** A user with TOTP two-factor on; the clock moves past the step the confirmation used. */
async function userWithTwoFactor() {
  const account = await signUp(server, { email: uniqueEmail("limits"), verified: true });
  const enabled = await account.browser.post("/two-factor/enable", { password: account.password });
  const { totpURI, backupCodes } = enabled.body as { totpURI: string; backupCodes: string[] };
  expect((await account.browser.post("/two-factor/verify-totp", { code: codeFor(totpURI) })).status).toBe(200);
  server.clock.advance(30);
  return { ...account, totpURI, backupCodes };
}

/** The password step of a sign-in: a browser holding a two-factor challenge. */
async function challenge(account: { email: string; password: string }): Promise<TestBrowser> {
  const browser = server.browser();
  const res = await browser.post("/sign-in/email", { email: account.email, password: account.password });
  expect(res.body.twoFactorRedirect).toBe(true);
  return browser;
}

describe("second-factor codes on one sign-in challenge", () => {
  it(`TOTP: of ${BURST} parallel codes, at most ${CHALLENGE_ATTEMPTS} are checked`, async () => {
    const account = await userWithTwoFactor();
    const browser = await challenge(account);
    const codes = guessesEndingWith(codeFor(account.totpURI));
    const answers = await burst(
      browser,
      "/two-factor/verify-totp",
      codes.map((code) => ({ code })),
    );
    expect(checked(answers, "INVALID_CODE").length).toBeLessThanOrEqual(CHALLENGE_ATTEMPTS);
  });

  it(`backup codes: of ${BURST} parallel codes, at most ${CHALLENGE_ATTEMPTS} are checked`, async () => {
    const account = await userWithTwoFactor();
    const browser = await challenge(account);
    const codes = [...Array.from({ length: BURST - 1 }, (_, i) => `wrong-code-${i}`), account.backupCodes[0]];
    const answers = await burst(
      browser,
      "/two-factor/verify-backup-code",
      codes.map((code) => ({ code })),
    );
    expect(checked(answers, "INVALID_BACKUP_CODE").length).toBeLessThanOrEqual(CHALLENGE_ATTEMPTS);
  });

  it(`mailed OTP: of ${BURST} parallel codes, at most ${CHALLENGE_ATTEMPTS} are checked`, async () => {
    const account = await userWithTwoFactor();
    const browser = await challenge(account);
    expect((await browser.post("/two-factor/send-otp", {})).body).toEqual({ status: true });
    const codes = guessesEndingWith(await mailedCode(account.email, "two-factor-otp"));
    const answers = await burst(
      browser,
      "/two-factor/verify-otp",
      codes.map((code) => ({ code })),
    );
    expect(checked(answers, "INVALID_CODE").length).toBeLessThanOrEqual(CHALLENGE_ATTEMPTS);
  });

  it("a correct password does not reset the count wrong second-factor codes built", async () => {
    const account = await userWithTwoFactor();
    for (let i = 0; i <= FREE_FAILURES; i++) {
      // A fresh challenge for every code: each sign-in proves the password again.
      const wrong = await (await challenge(account)).post("/two-factor/verify-totp", { code: "000000" });
      expect(wrong.body.code).toBe("INVALID_CODE");
    }
    const right = await (await challenge(account)).post("/two-factor/verify-totp", { code: codeFor(account.totpURI) });
    expect([right.status, right.body.code]).toEqual([429, "TOO_MANY_REQUESTS"]);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);

    // Once the wait is over, the right code gets in and clears the count.
    server.clock.advance(Number(right.headers.get("retry-after")) + 0.1);
    const later = await (await challenge(account)).post("/two-factor/verify-totp", { code: codeFor(account.totpURI) });
    expect(later.status).toBe(200);
  });
});

describe("codes by mail (email-otp)", () => {
  const routes = [
    { path: "/email-otp/check-verification-otp", type: "sign-in", body: { type: "sign-in" }, newUser: true },
    { path: "/sign-in/email-otp", type: "sign-in", body: {}, newUser: true },
    { path: "/email-otp/verify-email", type: "email-verification", body: {}, newUser: false },
    {
      path: "/email-otp/reset-password",
      type: "forget-password",
      body: { password: "a new passphrase" },
      newUser: false,
    },
  ];

  for (const route of routes) {
    it(`${route.path}: of ${BURST} parallel guesses only ${OTP_ATTEMPTS} are checked; the right one, last, is not`, async () => {
      const email = uniqueEmail("otp-burst");
      if (!route.newUser) await signUp(server, { email });
      const sent = await server.browser().post("/email-otp/send-verification-otp", { email, type: route.type });
      expect(sent.body).toEqual({ success: true });
      const codes = guessesEndingWith(await mailedCode(email, "email-otp"));
      const answers = await burst(
        server.browser(),
        route.path,
        codes.map((otp) => ({ ...route.body, email, otp })),
      );
      // A refused guess kills the code, and later guesses find none (INVALID_OTP too), so what
      // shows the limit held is that the right code, fired last, was never accepted.
      expect(answers.filter((a) => a.status === 200)).toEqual([]);
      expect(answers.filter((a) => a.code === "TOO_MANY_ATTEMPTS").length).toBeGreaterThan(0);
    });
  }

  it("checking a right code costs no attempt: two typos, a check, then the sign-in still works", async () => {
    const email = uniqueEmail("otp-check");
    await server.browser().post("/email-otp/send-verification-otp", { email, type: "sign-in" });
    const otp = await mailedCode(email, "email-otp");
    for (const typo of ["000000", "111111"]) {
      const res = await server.browser().post("/sign-in/email-otp", { email, otp: typo === otp ? "222222" : typo });
      expect(res.body.code).toBe("INVALID_OTP");
    }
    const check = await server.browser().post("/email-otp/check-verification-otp", { email, type: "sign-in", otp });
    expect(check.body).toEqual({ success: true });
    expect((await server.browser().post("/sign-in/email-otp", { email, otp })).status).toBe(200);
  });
});

describe("passwords", () => {
  it(`of ${BURST} parallel wrong passwords for one account, at most ${FREE_FAILURES + 1} are checked`, async () => {
    const { email, password } = await signUp(server, { email: uniqueEmail("pw-burst") });
    // The waits start at 1 s: a burst slower than that on a loaded machine would see them end.
    server.clock.freeze();
    const answers = await burst(
      server.browser(),
      "/sign-in/email",
      Array.from({ length: BURST }, (_, i) => ({ email, password: `wrong password ${i}` })),
    ).finally(() => server.clock.resume());
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(FREE_FAILURES + 1);
    expect(answers.filter((a) => a.status !== 401 && a.status !== 429)).toEqual([]);
    // The burst spent the free attempts: the next wrong password starts the wait (unless a racer of
    // the burst already did), and then even the right one is refused.
    server.clock.freeze();
    const [next, right] = await (async (): Promise<[TestResponse, TestResponse]> => {
      const wrong = await server.browser().post("/sign-in/email", { email, password: "one more wrong password" });
      return [wrong, await server.browser().post("/sign-in/email", { email, password })];
    })().finally(() => server.clock.resume());
    expect([401, 429]).toContain(next.status);
    expect([right.status, right.body.code]).toEqual([429, "TOO_MANY_REQUESTS"]);
  });
});

describe("a signed-in user's password", () => {
  it(`of ${BURST} parallel wrong passwords on one session (verify-password), at most ${FREE_FAILURES + 1} are checked`, async () => {
    // A stolen session cookie must not guess the password faster than sign-in may.
    const { browser } = await signUp(server, { email: uniqueEmail("reprove-burst") });
    server.clock.freeze();
    const answers = await burst(
      browser,
      "/verify-password",
      Array.from({ length: BURST }, (_, i) => ({ password: `wrong password ${i}` })),
    ).finally(() => server.clock.resume());
    expect(checked(answers, "INVALID_PASSWORD").length).toBeLessThanOrEqual(FREE_FAILURES + 1);
    expect(answers.filter((a) => a.code !== "INVALID_PASSWORD" && a.status !== 429)).toEqual([]);
  });
});

describe("mail caps", () => {
  const senders = [
    { path: "/sign-in/magic-link", body: {} },
    { path: "/email-otp/send-verification-otp", body: { type: "sign-in" } },
    { path: "/send-verification-email", body: {} },
    { path: "/request-password-reset", body: { redirectTo: "/reset" } },
  ];
  for (const sender of senders) {
    it(`${sender.path}: ${BURST} parallel requests put at most ${RECIPIENT_CAP} mails in one inbox`, async () => {
      const { email } = await signUp(server, { email: uniqueEmail("cap-burst") });
      const before = await db().selectFrom("outbox").select("id").where("to", "=", email).execute();
      const answers = await burst(
        server.browser(),
        sender.path,
        Array.from({ length: BURST }, () => ({ ...sender.body, email })),
      );
      expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
      const mails = await db().selectFrom("outbox").select("id").where("to", "=", email).execute();
      expect(mails.length).toBeLessThanOrEqual(RECIPIENT_CAP);
      expect(mails.length).toBeGreaterThan(before.length);
    });
  }

  it("a code asked for past the cap leaves the last mailed code working", async () => {
    const email = uniqueEmail("cap-code");
    for (let i = 0; i < RECIPIENT_CAP; i++) {
      await server.browser().post("/email-otp/send-verification-otp", { email, type: "sign-in" });
      server.clock.advance(1); // so the latest mail is the last one queued
    }
    const mailed = await mailedCode(email, "email-otp");
    await server.browser().post("/email-otp/send-verification-otp", { email, type: "sign-in" });
    const res = await server.browser().post("/sign-in/email-otp", { email, otp: mailed });
    expect(res.status).toBe(200);
  });
});
