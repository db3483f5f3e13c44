import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { secretFormatProblem, signedHeaders } from "./signing.js";

const secret = `whsec_${randomBytes(32).toString("base64")}`;

describe("Standard Webhooks signing", () => {
  it("signs what the reference library verifies, and the same as it signs", () => {
    const body = JSON.stringify({ type: "user.created", timestamp: new Date().toISOString(), data: { id: "u1" } });
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = signedHeaders(secret, "msg_1", timestamp, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers["webhook-signature"]).toBe(new Webhook(secret).sign("msg_1", now, body));
  });

  it("is refused by the library for a changed body, id or secret", () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = signedHeaders(secret, "msg_2", timestamp, '{"a":1}');
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"a":1}', { ...headers, "webhook-id": "msg_3" })).toThrow();
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(() => new Webhook(other).verify('{"a":1}', headers)).toThrow();
  });

  it.each([
    ["no prefix", randomBytes(32).toString("base64")],
    ["not base64", "whsec_not base64 at all!!"],
    ["too short", `whsec_${randomBytes(8).toString("base64")}`],
    ["too long", `whsec_${randomBytes(100).toString("base64")}`],
    ["empty", "whsec_"],
  ])("finds a secret with %s malformed", (_, value) => {
    expect(secretFormatProblem(value)).toMatch(/whsec_/);
  });

  it("accepts 24 to 64 random bytes", () => {
    expect(secretFormatProblem(`whsec_${randomBytes(24).toString("base64")}`)).toBeNull();
    expect(secretFormatProblem(secret)).toBeNull();
    expect(secretFormatProblem(`whsec_${randomBytes(64).toString("base64")}`)).toBeNull();
  });
});
