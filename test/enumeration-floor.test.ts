import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENUMERATION_SAFE_ANSWER_MS } from "../src/server/services/timing.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Routes that mail someone answer alike whether the address is known or not, and in no less than
 * the floor: the other test servers shorten it (test/helpers/server.ts), this one keeps the default.
 */
let capture: MailCapture;
let server: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  server = await startTestServer({
    options: { magicLink: { enabled: true }, emailOTP: { enabled: true } },
    extra: { mail: { smtpUrl: capture.url }, enumerationSafeAnswerMs: undefined },
  });
});
afterAll(async () => {
  await server?.close();
  await capture?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const ROUTES: [string, (email: string) => Record<string, unknown>][] = [
  ["/request-password-reset", (email) => ({ email })],
  ["/sign-in/magic-link", (email) => ({ email })],
  ["/email-otp/send-verification-otp", (email) => ({ email, type: "forget-password" })],
  ["/send-verification-email", (email) => ({ email })],
];

describe("answers that must not tell whether an address is known", () => {
  it("take at least the floor, for a known address and an unknown one alike", async () => {
    const known = await signUp(server);
    const timed = async (path: string, body: Record<string, unknown>) => {
      const startedAt = performance.now();
      const res = await server.browser().post(path, body);
      return { path, status: res.status, long: performance.now() - startedAt >= ENUMERATION_SAFE_ANSWER_MS };
    };
    const answers = await Promise.all(
      ROUTES.flatMap(([path, body]) => [timed(path, body(known.email)), timed(path, body("nobody@example.com"))]),
    );
    expect(answers).toEqual(
      ROUTES.flatMap(([path]) => [
        { path, status: 200, long: true },
        { path, status: 200, long: true },
      ]),
    );
  });
});
