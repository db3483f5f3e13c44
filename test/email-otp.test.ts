import { createAuthClient } from "better-auth/client";
import { emailOTPClient } from "better-auth/client/plugins";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let capture: MailCapture;
let server: TestServer;
/** emailOTP.sendVerificationOnSignUp on. */
let codesOnSignUp: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  [server, codesOnSignUp] = await Promise.all([
    startTestServer({ options: { emailOTP: { enabled: true } }, extra }),
    startTestServer({ options: { emailOTP: { enabled: true, sendVerificationOnSignUp: true } }, extra }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), codesOnSignUp?.close()]);
  await capture?.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(codesOnSignUp.loggedErrors).toEqual([]);
});

/** Asks for a code and reads it from the n-th such mail. */
async function mailedCode(email: string, type: string, subject: string, target = server, n = 1) {
  const res = await target.browser().post("/email-otp/send-verification-otp", { email, type });
  expect(res.body).toEqual({ success: true });
  const mail = await nthMail(capture, email, subject, n);
  return /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
}

describe("codes by mail", () => {
  it("signs up a new address with a code; checking does not use it up, signing in does", async () => {
    const email = uniqueEmail("otp");
    const code = await mailedCode(email, "sign-in", "Your sign-in code");
    const check = await server
      .browser()
      .post("/email-otp/check-verification-otp", { email, type: "sign-in", otp: code });
    expect(check.body).toEqual({ success: true });
    const browser = server.browser();
    const res = await browser.post("/sign-in/email-otp", { email, otp: code, name: "Otto" });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, name: "Otto", emailVerified: true });
    expect((await browser.get("/get-session")).body.user.email).toBe(email);
    const again = await server.browser().post("/sign-in/email-otp", { email, otp: code });
    expect(again.body.code).toBe("INVALID_OTP");
  });

  it("voids a code after allowedAttempts wrong guesses, and an expired one", async () => {
    const email = uniqueEmail("guess");
    const code = await mailedCode(email, "sign-in", "Your sign-in code");
    for (let i = 0; i < 3; i++) {
      const wrong = await server.browser().post("/sign-in/email-otp", { email, otp: "000000" });
      expect(wrong.body.code).toBe("INVALID_OTP");
    }
    const late = await server.browser().post("/sign-in/email-otp", { email, otp: code });
    expect(late.body.code).toBe("TOO_MANY_ATTEMPTS");

    const next = await mailedCode(email, "sign-in", "Your sign-in code", server, 2);
    server.clock.advance(301);
    const expired = await server.browser().post("/sign-in/email-otp", { email, otp: next });
    expect(expired.body.code).toBe("OTP_EXPIRED");
  });

  it("resets a password with a code; an unknown address gets the same answer and no mail", async () => {
    const account = await signUp(server, { email: uniqueEmail("reset-otp") });
    const res = await server.browser().post("/forget-password/email-otp", { email: account.email });
    expect(res.body).toEqual({ success: true });
    const mail = await nthMail(capture, account.email, "Your password reset code");
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
    const wrong = await server.browser().post("/email-otp/reset-password", {
      email: account.email,
      otp: "000000",
      password: "a brand new password",
    });
    expect(wrong.body.code).toBe("INVALID_OTP");
    const reset = await server.browser().post("/email-otp/reset-password", {
      email: account.email,
      otp: code,
      password: "a brand new password",
    });
    // The address had not been proven: the code adopts the account, stripping what was set up on it.
    expect(reset.body).toEqual({ success: true, credentialsRemoved: true });
    expect((await account.browser.get("/get-session")).body).toBeNull();
    const signIn = await server
      .browser()
      .post("/sign-in/email", { email: account.email, password: "a brand new password" });
    expect(signIn.status).toBe(200);

    const nobody = uniqueEmail("nobody");
    expect((await server.browser().post("/forget-password/email-otp", { email: nobody })).body).toEqual({
      success: true,
    });
    expect(await settledCount(server, capture, nobody, "Your password reset code")).toBe(0);
  });

  it("mails a verification code at sign-up when asked to, and verifies the address with it", async () => {
    const email = uniqueEmail("verify-otp");
    const account = await signUp(codesOnSignUp, { email });
    expect(account.user.emailVerified).toBe(false);
    const mail = await nthMail(capture, email, "Your verification code");
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
    const res = await codesOnSignUp.browser().post("/email-otp/verify-email", { email, otp: code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, user: { email, emailVerified: true } });
  });

  it("works with better-auth's emailOTPClient", async () => {
    const jar = cookieFetch();
    const client = createAuthClient({
      baseURL: server.origin,
      plugins: [emailOTPClient()],
      fetchOptions: { customFetchImpl: jar, headers: { origin: server.origin } },
    });
    const email = uniqueEmail("otp-client");
    const sent = await client.emailOtp.sendVerificationOtp({ email, type: "sign-in" });
    expect(sent.data).toEqual({ success: true });
    const mail = await nthMail(capture, email, "Your sign-in code");
    const otp = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? "";
    const signedIn = await client.signIn.emailOtp({ email, otp });
    expect(signedIn.error).toBeNull();
    expect((await client.getSession()).data?.user.email).toBe(email);
  });
});
