import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// The per-account brake on password guessing (ASVS 2.2.1): whatever address the guesses come
// from, an account (or an email nobody has) gets five free failures, then waits 1 s, 2 s, 4 s ...

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

const attempt = async (email: string, password: string) => {
  const res = await server.browser().post("/sign-in/email", { email, password });
  return { status: res.status, code: res.body?.code as string | undefined, retryAfter: res.headers.get("retry-after") };
};

describe("per-account sign-in throttle", () => {
  it("after five failures, refuses even the right password until the wait is over, then lets it in and forgets", async () => {
    const { email, password } = await signUp(server);
    for (let i = 0; i < 5; i++) expect((await attempt(email, "wrong password!")).status).toBe(401);
    const during = await attempt(email, password);
    expect([during.status, during.code, during.retryAfter]).toEqual([429, "TOO_MANY_REQUESTS", "1"]);

    server.clock.advance(1.1);
    expect((await attempt(email, password)).status).toBe(200);
    // Success reset the count: five more free failures.
    for (let i = 0; i < 5; i++) expect((await attempt(email, "wrong password!")).status).toBe(401);
  });

  it("doubles the wait with each further failure, up to 15 minutes", async () => {
    const { email } = await signUp(server);
    for (let i = 0; i < 5; i++) await attempt(email, "wrong password!");
    const waits: string[] = [];
    for (let i = 0; i < 4; i++) {
      const locked = await attempt(email, "wrong password!");
      waits.push(locked.retryAfter ?? "none");
      server.clock.advance(Number(locked.retryAfter) + 0.1);
      expect((await attempt(email, "wrong password!")).status).toBe(401);
    }
    expect(waits).toEqual(["1", "2", "4", "8"]);
  });

  it("answers an unknown email exactly as a known one, so it reveals nothing", async () => {
    const unknown = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
    const { email } = await signUp(server);
    const seen = async (address: string) => {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const a = await attempt(address, "wrong password!");
        answers.push(`${a.status} ${a.code} ${a.retryAfter}`);
      }
      return answers;
    };
    expect(await seen(unknown)).toEqual(await seen(email));
  });

  it("lets only one of many parallel guesses through once the brake is near", async () => {
    const { email } = await signUp(server);
    for (let i = 0; i < 4; i++) await attempt(email, "wrong password!");
    const statuses = await Promise.all(Array.from({ length: 8 }, () => attempt(email, "wrong password!")));
    expect(statuses.filter((s) => s.status === 401)).toHaveLength(1);
    expect(statuses.filter((s) => s.status === 429)).toHaveLength(7);
  });
});

describe("a password reset lifts the brake", () => {
  it("lets the mailbox owner in at once after resetting", async () => {
    const { email } = await signUp(server);
    for (let i = 0; i < 6; i++) await attempt(email, "wrong password!");
    expect((await attempt(email, "wrong password!")).status).toBe(429);
    await server.browser().post("/request-password-reset", { email, redirectTo: "/reset" });
    const mail = await server.auth.database.db
      .selectFrom("outbox")
      .select(["text"])
      .where("to", "=", email)
      .where("kind", "=", "reset-password")
      .executeTakeFirstOrThrow();
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    expect((await server.browser().post("/reset-password", { token, newPassword: "a fresh passphrase" })).status).toBe(
      200,
    );
    expect((await attempt(email, "a fresh passphrase")).status).toBe(200);
  });
});
