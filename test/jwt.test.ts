import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialectUnderTest } from "./helpers/database.js";
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

  it("rotates: a new key is published first, signs a minute later, the old one verifies through its grace period", async () => {
    const { browser } = await signUp(server);
    const before = (await browser.get("/token")).body.token;
    server.clock.advance(HOUR + 1);
    // Due: the next key is created and listed, but the old one keeps signing until every instance lists it.
    const during = (await browser.get("/token")).body.token;
    expect(decodeProtectedHeader(during).kid).toBe(decodeProtectedHeader(before).kid);
    expect((await browser.get("/jwks")).body.keys).toHaveLength(2);
    server.clock.advance(66);
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

describe("one key set for every instance", () => {
  const options = { jwt: { rotationInterval: HOUR, gracePeriod: 600 } };
  const kids = async (server: TestServer) =>
    ((await server.browser().get("/jwks")).body.keys as { kid: string }[]).map((k) => k.kid).sort();

  it("parallel first requests create one key", async () => {
    const server = await startTestServer({ options });
    try {
      const sets = await Promise.all(Array.from({ length: 8 }, () => kids(server)));
      expect(new Set(sets.map((s) => s.join()))).toEqual(new Set([sets[0]!.join()]));
      expect(sets[0]).toHaveLength(1);
      expect(await server.auth.database.db.selectFrom("jwks").select("id").execute()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it.skipIf(dialectUnderTest() !== "postgres")(
    "two instances on one database publish the same keys, verify each other's tokens, and rotate once",
    async () => {
      const a = await startTestServer({ options });
      const b = await startTestServer({ options, shareDatabaseWith: a });
      try {
        const [fromA, fromB] = await Promise.all([kids(a), kids(b)]);
        expect(fromA).toEqual(fromB);
        expect(fromA).toHaveLength(1);
        const { browser } = await signUp(a);
        const token = (await browser.get("/token")).body.token;
        await jwtVerify(token, createRemoteJWKSet(new URL(`${b.origin}/api/auth/jwks`)), {
          issuer: a.origin,
          audience: a.origin,
        });

        // Rotation due on both at once (they share the clock): one new generation, not two.
        a.clock.advance(HOUR + 1);
        const onB = browser.copyTo(b.origin);
        await Promise.all([browser.get("/token"), onB.get("/token"), kids(a), kids(b)]);
        const rows = await a.auth.database.db.selectFrom("jwks").select(["generation"]).execute();
        expect(rows.map((r) => r.generation).sort()).toEqual([1, 2]);
        expect(await kids(a)).toEqual(await kids(b));
      } finally {
        await b.close();
        await a.close();
      }
    },
  );
});

describe("jwt.jwks.keyPairConfig.alg (better-auth's jwt plugin option)", () => {
  let before: TestServer;
  let after: TestServer | null = null;
  beforeAll(async () => {
    before = await startTestServer({ shareable: true });
  });
  afterAll(async () => {
    await after?.close();
    await before.close();
  });

  const jwksOf = (server: TestServer) => createRemoteJWKSet(new URL(`${server.origin}/api/auth/jwks`));

  it("switched from EdDSA to RS256: the next key is RSA, published before it signs; EdDSA tokens still verify", async () => {
    const account = await signUp(before);
    const { user } = account;
    const old = (await account.browser.get("/token")).body.token as string;
    expect(decodeProtectedHeader(old).alg).toBe("EdDSA");
    before.clock.advance(120);

    after = await startTestServer({
      shareDatabaseWith: before,
      options: { jwt: { jwks: { keyPairConfig: { alg: "RS256" } } }, oauthProvider: { enabled: true } },
    });
    const again = after.browser();
    expect((await again.post("/sign-in/email", { email: account.email, password: account.password })).status).toBe(200);
    // The RSA key is made at once and listed, and the EdDSA key signs until every instance lists it.
    const first = (await again.get("/token")).body.token as string;
    const published = (await again.get("/jwks")).body.keys as { kty: string; alg: string; d?: string }[];
    expect(published.map((key) => [key.kty, key.alg]).sort()).toEqual([
      ["OKP", "EdDSA"],
      ["RSA", "RS256"],
    ]);
    expect(published.every((key) => key.d === undefined)).toBe(true);
    expect(decodeProtectedHeader(first).alg).toBe("EdDSA");
    // Discovery names both while the EdDSA key lives, the configured one first: an RP that checks
    // ID tokens against it accepts the minute's EdDSA tokens and the RS256 ones after.
    const discovery = await fetch(`${after.origin}/api/auth/.well-known/openid-configuration`);
    expect((await discovery.json()).id_token_signing_alg_values_supported).toEqual(["RS256", "EdDSA"]);
    after.clock.advance(66);
    const rsa = (await again.get("/token")).body.token as string;
    expect(decodeProtectedHeader(rsa).alg).toBe("RS256");
    // A rolling change: the instance still set to EdDSA signs with its key, and neither makes another.
    before.clock.advance(120);
    expect(decodeProtectedHeader((await account.browser.get("/token")).body.token).alg).toBe("EdDSA");
    expect(decodeProtectedHeader((await again.get("/token")).body.token).alg).toBe("RS256");
    expect((await again.get("/jwks")).body.keys).toHaveLength(2);
    // Every one verifies with the set the new instance publishes (each names the instance that issued it).
    for (const [token, issuedBy] of [
      [old, before],
      [first, after],
      [rsa, after],
    ] as const) {
      const verified = await jwtVerify(token, jwksOf(after), { issuer: issuedBy.origin, audience: issuedBy.origin });
      expect(verified.payload.sub).toBe(user.id);
    }
  });

  it("refuses an algorithm it does not offer at start-up", async () => {
    await expect(
      startTestServer({ options: { jwt: { jwks: { keyPairConfig: { alg: "HS256" } } } } as never }),
    ).rejects.toThrow(/alg/);
  });
});
