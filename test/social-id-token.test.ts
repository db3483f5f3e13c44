import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { providerOptions } from "./helpers/social.js";

let oidc: TestOidcProvider;
let server: TestServer;

beforeAll(async () => {
  oidc = await startOidcProvider();
  server = await startTestServer({
    options: {
      socialProviders: {
        oidc: providerOptions(oidc),
        // The Google preset, pointed at the local provider: One Tap verifies against its JWKS and client id.
        google: providerOptions(oidc),
        // A plain OAuth 2 preset: no ID tokens.
        github: {
          clientId: CLIENT_ID,
          clientSecret: CLIENT_SECRET,
          authorizationEndpoint: `${oidc.issuer}/auth`,
          tokenEndpoint: `${oidc.issuer}/token`,
          userInfoEndpoint: `${oidc.issuer}/me`,
        },
      },
    },
  });
  await oidc.configure([`${server.origin}/api/auth/callback/oidc`, `${server.origin}/api/auth/callback/google`]);
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

describe("POST /sign-in/social with idToken", () => {
  it("verifies a real ID token and signs in at once (no redirect), creating user and account", async () => {
    const user = oidc.addUser();
    const token = await oidc.idToken(user.sub, { nonce: "n-123" });
    const browser = server.browser();
    const res = await browser.post("/sign-in/social", {
      provider: "oidc",
      idToken: { token, nonce: "n-123", accessToken: "provider-access", expiresAt: Date.now() + 60_000 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ redirect: false, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(res.body.url).toBeUndefined();
    expect(res.body.user).toMatchObject({ email: user.email, emailVerified: true });
    expect((await browser.get("/get-session")).body.user.id).toBe(res.body.user.id);
    const account = await db()
      .selectFrom("account")
      .selectAll()
      .where("userId", "=", res.body.user.id)
      .executeTakeFirst();
    expect(account).toMatchObject({ providerId: "oidc", accountId: user.sub });
    expect(server.auth.context.tokenCipher.decrypt(account!.idToken!)).toBe(token);
    expect(server.auth.context.tokenCipher.decrypt(account!.accessToken!)).toBe("provider-access");
  });

  it("refuses a wrong nonce, another audience, a forged signature and an expired token with 401 INVALID_TOKEN", async () => {
    const user = oidc.addUser();
    const token = await oidc.idToken(user.sub, { nonce: "right" });
    const otherAudience = await oidc.idToken(user.sub, { client: "other" });
    const [h, p, s] = token.split(".") as [string, string, string];
    const forged = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    const cases = [{ token, nonce: "wrong" }, { token: otherAudience }, { token: forged }, { token: "not-a-jwt" }];
    for (const idToken of cases) {
      const res = await server.browser().post("/sign-in/social", { provider: "oidc", idToken });
      expect(res.status, JSON.stringify(idToken).slice(0, 40)).toBe(401);
      expect(res.body.code).toBe("INVALID_TOKEN");
    }
    server.clock.advance(2 * 3600);
    try {
      const expired = await server.browser().post("/sign-in/social", { provider: "oidc", idToken: { token } });
      expect(expired.status).toBe(401);
    } finally {
      server.clock.advance(-2 * 3600);
    }
    expect(
      await db().selectFrom("user").select("id").where("email", "=", user.email!).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("USER_EMAIL_NOT_FOUND, ID_TOKEN_NOT_SUPPORTED and PROVIDER_NOT_FOUND", async () => {
    const noEmail = oidc.addUser({ email: undefined });
    const token = await oidc.idToken(noEmail.sub);
    const missing = await server.browser().post("/sign-in/social", { provider: "oidc", idToken: { token } });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe("USER_EMAIL_NOT_FOUND");

    const plain = await server.browser().post("/sign-in/social", { provider: "github", idToken: { token } });
    expect(plain.status).toBe(404);
    expect(plain.body.code).toBe("ID_TOKEN_NOT_SUPPORTED");

    const unknown = await server.browser().post("/sign-in/social", { provider: "nope", idToken: { token } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("PROVIDER_NOT_FOUND");
  });

  it("refuses implicit linking with 401 OAUTH_LINK_ERROR 'account not linked'", async () => {
    const local = await signUp(server);
    const user = oidc.addUser({ email: local.email, email_verified: false });
    const token = await oidc.idToken(user.sub);
    const res = await server.browser().post("/sign-in/social", { provider: "oidc", idToken: { token } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "OAUTH_LINK_ERROR", message: "account not linked" });
  });
});

describe("POST /one-tap/callback", () => {
  it("verifies the Google ID token against the google provider's JWKS and audience and signs up", async () => {
    const user = oidc.addUser();
    const token = await oidc.idToken(user.sub);
    const browser = server.browser();
    const res = await browser.post("/one-tap/callback", { idToken: token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), user: { email: user.email } });
    const account = await db()
      .selectFrom("account")
      .selectAll()
      .where("userId", "=", res.body.user.id)
      .executeTakeFirst();
    expect(account).toMatchObject({ providerId: "google", accountId: user.sub, scope: "openid,profile,email" });

    const again = await server.browser().post("/one-tap/callback", { idToken: await oidc.idToken(user.sub) });
    expect(again.body.user.id).toBe(res.body.user.id);
  });

  it("refuses another audience, a bad token (400 invalid id token) and a token without email", async () => {
    const user = oidc.addUser();
    const other = await server.browser().post("/one-tap/callback", {
      idToken: await oidc.idToken(user.sub, { client: "other" }),
    });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ code: "INVALID_ID_TOKEN", message: "invalid id token" });
    const garbage = await server.browser().post("/one-tap/callback", { idToken: "x.y.z" });
    expect(garbage.status).toBe(400);

    const noEmail = oidc.addUser({ email: undefined });
    const res = await server.browser().post("/one-tap/callback", { idToken: await oidc.idToken(noEmail.sub) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("EMAIL_NOT_AVAILABLE_IN_TOKEN");

    const invalid = await server.browser().post("/one-tap/callback", {});
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_ERROR");
  });

  it("refuses One Tap tokens older than an hour", async () => {
    const user = oidc.addUser();
    const token = await oidc.idToken(user.sub);
    server.clock.advance(3601);
    try {
      const res = await server.browser().post("/one-tap/callback", { idToken: token });
      expect(res.status).toBe(400);
    } finally {
      server.clock.advance(-3601);
    }
  });
});
