import { describe, expect, it } from "vitest";
import { auditEntryHash, type HashedAuditFields, hashedTime } from "./hash.js";

const entry: HashedAuditFields = {
  seq: 1,
  id: "a1",
  createdAt: new Date("2026-11-26T10:00:00.000Z"),
  action: "user.sign_in",
  outcome: "success",
  actorType: "user",
  actorId: "u1",
  subjectId: "u1",
  organizationId: null,
  ipAddress: "127.0.0.1",
  userAgent: "test",
  requestId: "r1",
  details: '{"method":"email"}',
};

describe("auditEntryHash", () => {
  it("is 64 hex characters and the same for the same entry and previous hash", () => {
    const hash = auditEntryHash(entry, "0".repeat(64));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(auditEntryHash({ ...entry }, "0".repeat(64))).toBe(hash);
  });

  it("changes with any field and with the previous hash", () => {
    const hash = auditEntryHash(entry, "0".repeat(64));
    expect(auditEntryHash(entry, "1".repeat(64))).not.toBe(hash);
    for (const change of [
      { seq: 2 },
      { actorId: null },
      { outcome: "failure" },
      { details: null },
      { ipAddress: "::1" },
    ]) {
      expect(auditEntryHash({ ...entry, ...change }, "0".repeat(64))).not.toBe(hash);
    }
  });

  it("keeps field boundaries: moving text from one field to the next changes the hash", () => {
    const a = auditEntryHash({ ...entry, ipAddress: "ab", userAgent: "c" }, "0".repeat(64));
    const b = auditEntryHash({ ...entry, ipAddress: "a", userAgent: "bc" }, "0".repeat(64));
    expect(a).not.toBe(b);
  });
});

describe("auditEntryHash's definition", () => {
  it("stays the hash of the JSON array [seq, fields..., previous hash] that existing chains were written with", () => {
    const tricky: HashedAuditFields = {
      seq: 41,
      id: "e1",
      createdAt: new Date("2026-11-27T05:30:00.123Z"),
      action: "user.updated",
      outcome: "success",
      actorType: "user",
      actorId: 'u"1\\',
      subjectId: null,
      organizationId: "o\u0001\n\t",
      ipAddress: "::1",
      userAgent: "Zürich 🚀 \u2028 </script>",
      requestId: null,
      details: '{"a":"b"}',
    };
    // Written by the one-piece definition before the body was split out (it must never change).
    expect(auditEntryHash(tricky, "f".repeat(64))).toBe(
      "1a1d4f116962b168153b8a04aee95736c1be7ec905ce7e96f7ed08e0d89cabb3",
    );
  });
});

describe("hashedTime", () => {
  it("hashes a time read back as SQLite's text as it hashes the Date it was written from", () => {
    const at = new Date("2026-12-06T08:00:00.123Z");
    const asDate = auditEntryHash({ ...entry, createdAt: at }, "");
    expect(auditEntryHash({ ...entry, createdAt: hashedTime(at.toISOString()) }, "")).toBe(asDate);
    expect(auditEntryHash({ ...entry, createdAt: hashedTime(at) }, "")).toBe(asDate);
    // Text in another form is parsed, so it hashes as its instant, never as the text itself.
    expect(auditEntryHash({ ...entry, createdAt: hashedTime("2026-12-06 08:00:00.123Z") }, "")).toBe(asDate);
  });
});
