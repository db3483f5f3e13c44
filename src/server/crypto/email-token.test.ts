import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { checkEmailToken, signEmailToken } from "./email-token.js";

const secret = "a-secret-that-is-at-least-32-characters!";
const now = new Date("2030-01-01T00:00:00Z");

describe("email tokens", () => {
  it("are HS256 JWTs carrying the email, user and change-email fields, iat and exp", async () => {
    const token = await signEmailToken(
      secret,
      { email: "a@example.com", userId: "u1", updateTo: "b@example.com", requestType: "change-email-verification" },
      { now, expiresInSeconds: 3600 },
    );
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256" });
    expect(decodeJwt(token)).toEqual({
      email: "a@example.com",
      userId: "u1",
      updateTo: "b@example.com",
      requestType: "change-email-verification",
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 3600,
    });
    const check = await checkEmailToken(secret, token, now);
    expect(check).toMatchObject({ status: "valid", claims: { email: "a@example.com", userId: "u1" } });
  });

  it("tells an expired token from a forged or tampered one", async () => {
    const token = await signEmailToken(secret, { email: "a@example.com", userId: "u1" }, { now, expiresInSeconds: 60 });
    expect((await checkEmailToken(secret, token, new Date(now.getTime() + 61_000))).status).toBe("expired");
    expect((await checkEmailToken(`${secret}x`, token, now)).status).toBe("invalid");
    const [header, , signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ email: "evil@example.com", userId: "u1", exp: 9e9 })).toString(
      "base64url",
    );
    expect((await checkEmailToken(secret, `${header}.${forged}.${signature}`, now)).status).toBe("invalid");
    expect((await checkEmailToken(secret, "not-a-jwt", now)).status).toBe("invalid");
  });
});
