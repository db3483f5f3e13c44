import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const HOUR = 3600;

describe("signed tokens verified from outside with jose and GET /jwks", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ options: { jwt: { rotationInterval: HOUR, gracePeriod: 600 } } });
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  const jwks = () => createRemoteJWKSet(new URL(`${server.origin}/api/auth/jwks`));
  const verify = (token: string, options: Parameters<typeof jwtVerify>[2] = {}) =>
    jwtVerify(token, jwks(), { issuer: server.origin, audience: server.origin, ...options });

  it("issues a 15-minute EdDSA token for the session that a remote JWKS verifies", async () => {
    const { browser, user } = await signUp(server);
    const res = await browser.get("/token");
    expect(res.status).toBe(200);
    const { payload, protectedHeader } = await verify(res.body.token);
    expect(protectedHeader.alg).toBe("EdDSA");
    expect(payload).toMatchObject({
      sub: user.id,
      email: user.email,
      name: user.name,
      role: "user",
      organization_id: null,
      organization_role: null,
    });
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it("needs a session", async () => {
    const res = await server.browser().get("/token");
    expect([res.status, res.body.code]).toEqual([401, "UNAUTHORIZED"]);
  });

  it("refuses a tampered token and an expired one", async () => {
    const { browser } = await signUp(server);
    const { token } = (await browser.get("/token")).body;
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    claims.role = "admin";
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString("base64url"), signature].join(".");
    await expect(verify(forged)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    await expect(verify(token, { currentDate: new Date(Date.now() + 3 * HOUR * 1000) })).rejects.toBeInstanceOf(
      errors.JWTExpired,
    );
    await expect(verify(token, { audience: "https://other.example" })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed,
    );
  });

  it("stores the private key encrypted at rest", async () => {
    const rows = await server.auth.database.db.selectFrom("jwks").selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.privateKey.startsWith("v1.")).toBe(true);
      expect(row.privateKey).not.toContain('"d"');
      expect(JSON.parse(row.publicKey)).not.toHaveProperty("d");
    }
  });

  it("rotates: a new key signs, the old one verifies through its grace period, then leaves the set", async () => {
    const { browser } = await signUp(server);
    const before = (await browser.get("/token")).body.token;
    server.clock.advance(HOUR + 1);
    const after = (await browser.get("/token")).body.token;
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid);
    const set = (await browser.get("/jwks")).body;
    expect(set.keys.map((k: { kid: string }) => k.kid)).toEqual(
      expect.arrayContaining([decodeProtectedHeader(before).kid, decodeProtectedHeader(after).kid]),
    );
    await expect(verify(before)).resolves.toBeTruthy();
    await expect(verify(after)).resolves.toBeTruthy();

    server.clock.advance(HOUR + 601);
    const later = (await browser.get("/jwks")).body;
    expect(later.keys.map((k: { kid: string }) => k.kid)).not.toContain(decodeProtectedHeader(before).kid);
    await expect(verify(before)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
  });
});

describe("set-auth-jwt on get-session", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ options: { jwt: { setAuthJwtHeader: true, audience: "api.example" } } });
  });
  afterAll(() => server.close());

  it("hands out a token in the header when configured", async () => {
    const { browser, user } = await signUp(server);
    const res = await browser.get("/get-session");
    const token = res.headers.get("set-auth-jwt");
    expect(token).toBeTruthy();
    const { payload } = await jwtVerify(token!, createRemoteJWKSet(new URL(`${server.origin}/api/auth/jwks`)), {
      audience: "api.example",
    });
    expect(payload.sub).toBe(user.id);
    expect((await server.browser().get("/get-session")).headers.get("set-auth-jwt")).toBeNull();
  });
});
