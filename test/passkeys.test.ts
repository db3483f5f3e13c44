import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { passkey: { enabled: true }, twoFactor: { enabled: true } } });
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const authenticator = () => new SoftAuthenticator(new URL(server.origin).hostname, server.origin);

async function registerPasskey(browser: TestBrowser, device: SoftAuthenticator, name = "Laptop") {
  const options = await browser.get("/passkey/generate-register-options");
  expect(options.status).toBe(200);
  expect(options.body.rp.id).toBe(device.rpID);
  return browser.post("/passkey/verify-registration", { response: device.register(options.body), name });
}

async function passkeySignIn(browser: TestBrowser, device: SoftAuthenticator) {
  const options = await browser.get("/passkey/generate-authenticate-options");
  expect(options.status).toBe(200);
  return browser.post("/passkey/verify-authentication", { response: device.authenticate(options.body) });
}

describe("passkeys", () => {
  it("registers a passkey for a signed-in user, then signs in with it alone", async () => {
    const account = await signUp(server, { email: uniqueEmail("pk"), verified: true });
    const device = authenticator();
    const registered = await registerPasskey(account.browser, device);
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ name: "Laptop", userId: account.user.id, credentialID: device.id });
    const list = await account.browser.get("/passkey/list-user-passkeys");
    expect(list.body.map((p: { credentialID: string }) => p.credentialID)).toEqual([device.id]);

    const browser = server.browser();
    const signedIn = await passkeySignIn(browser, device);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(account.user.id);
    expect((await browser.get("/get-session")).body.user.id).toBe(account.user.id);
    const stored = await server.auth.database.db
      .selectFrom("passkey")
      .select("counter")
      .where("credentialID", "=", device.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(1);
  });

  it("refuses a reused challenge, a foreign origin, an unknown passkey and a missing challenge", async () => {
    const account = await signUp(server, { email: uniqueEmail("pk-bad"), verified: true });
    const device = authenticator();
    await registerPasskey(account.browser, device);

    const browser = server.browser();
    const options = await browser.get("/passkey/generate-authenticate-options");
    const assertion = device.authenticate(options.body);
    expect((await browser.post("/passkey/verify-authentication", { response: assertion })).status).toBe(200);
    const replay = await browser.post("/passkey/verify-authentication", { response: assertion });
    expect(replay.body.code).toBe("CHALLENGE_NOT_FOUND");

    const other = server.browser();
    const fresh = await other.get("/passkey/generate-authenticate-options");
    const foreign = await other.post("/passkey/verify-authentication", {
      response: device.authenticate(fresh.body, { origin: "https://evil.example" }),
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body.code).toBe("AUTHENTICATION_FAILED");

    const stranger = server.browser();
    const unknown = await passkeySignIn(stranger, authenticator());
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe("PASSKEY_NOT_FOUND");

    const noChallenge = await server.browser().post("/passkey/verify-authentication", {
      response: device.authenticate({ challenge: "made-up" }),
    });
    expect(noChallenge.body.code).toBe("CHALLENGE_NOT_FOUND");
    expect((await registerPasskey(account.browser, device)).body.code).toBe("PREVIOUSLY_REGISTERED");
  });

  it("counts as both factors: a user with two-factor on signs in with a passkey directly", async () => {
    const account = await signUp(server, { email: uniqueEmail("pk-2fa"), verified: true });
    const device = authenticator();
    await registerPasskey(account.browser, device);
    await server.auth.database.db
      .updateTable("user")
      .set({ twoFactorEnabled: true })
      .where("id", "=", account.user.id)
      .execute();
    expect((await server.browser().post("/sign-in/email", account)).body.twoFactorRedirect).toBe(true);
    const browser = server.browser();
    expect((await passkeySignIn(browser, device)).status).toBe(200);
    expect((await browser.get("/get-session")).body.user.id).toBe(account.user.id);
  });

  it("without user verification is one factor: a two-factor user owes the second step (issue 28)", async () => {
    const account = await signUp(server, { email: uniqueEmail("pk-no-uv"), verified: true });
    const device = authenticator();
    await registerPasskey(account.browser, device);
    await server.auth.database.db
      .updateTable("user")
      .set({ twoFactorEnabled: true })
      .where("id", "=", account.user.id)
      .execute();
    const browser = server.browser();
    const options = await browser.get("/passkey/generate-authenticate-options");
    const res = await browser.post("/passkey/verify-authentication", {
      response: device.authenticate(options.body, { userVerified: false }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ twoFactorRedirect: true });
    expect(res.body.session).toBeUndefined();
    expect(browser.cookieNames().some((name) => name.endsWith(".session_token"))).toBe(false);
    expect(browser.cookieNames().some((name) => name.endsWith(".two_factor"))).toBe(true);
    expect((await browser.get("/get-session")).body).toBeNull();

    // Without two-factor on, the passkey alone (possession, like a password) still signs in.
    const plain = await signUp(server, { email: uniqueEmail("pk-no-uv-plain"), verified: true });
    const key = authenticator();
    await registerPasskey(plain.browser, key);
    const other = server.browser();
    const fresh = await other.get("/passkey/generate-authenticate-options");
    const signedIn = await other.post("/passkey/verify-authentication", {
      response: key.authenticate(fresh.body, { userVerified: false }),
    });
    expect(signedIn.body.user.id).toBe(plain.user.id);
  });

  it("renames and deletes only the caller's own passkeys", async () => {
    const owner = await signUp(server, { email: uniqueEmail("pk-own"), verified: true });
    const id = (await registerPasskey(owner.browser, authenticator())).body.id as string;
    const renamed = await owner.browser.post("/passkey/update-passkey", { id, name: "Phone" });
    expect(renamed.body.passkey.name).toBe("Phone");

    const intruder = await signUp(server, { email: uniqueEmail("pk-other"), verified: true });
    const refused = await intruder.browser.post("/passkey/delete-passkey", { id });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("PASSKEY_NOT_FOUND");
    expect((await owner.browser.post("/passkey/delete-passkey", { id })).body).toEqual({ status: true });
    expect((await owner.browser.get("/passkey/list-user-passkeys")).body).toEqual([]);
  });
});
