import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../store/database.js";
import type { AuditTrailTable } from "../store/schema.js";
import { auditEntryHash, type HashedAuditFields } from "./audit-hash.js";

/**
 * Every column of auditTrail, and whether its entry's hash covers it. A new column must be added
 * here (the type requires every column and no other), and so decided: hashed, in HashedAuditFields
 * and the canonical encoding, or left out on purpose, with the reason.
 */
const COLUMNS = {
  seq: "hashed",
  id: "hashed",
  createdAt: "hashed",
  action: "hashed",
  outcome: "hashed",
  actorType: "hashed",
  actorId: "hashed",
  subjectId: "hashed",
  organizationId: "hashed",
  ipAddress: "hashed",
  userAgent: "hashed",
  requestId: "hashed",
  details: "hashed",
  // The hash itself: what the others are hashed into, chained through the next entry's hash.
  hash: "excluded",
} as const satisfies Record<keyof AuditTrailTable, "hashed" | "excluded">;

type Hashed = { [K in keyof typeof COLUMNS]: (typeof COLUMNS)[K] extends "hashed" ? K : never }[keyof typeof COLUMNS];
// Both ways: what COLUMNS calls hashed is exactly what HashedAuditFields holds.
const hashedFieldsAreHashedColumns: [Hashed] extends [keyof HashedAuditFields] ? true : false = true;
const hashedColumnsAreHashedFields: [keyof HashedAuditFields] extends [Hashed] ? true : false = true;

const entry: HashedAuditFields = {
  seq: 7,
  id: "a7",
  createdAt: new Date("2026-11-26T10:00:00.000Z"),
  action: "user.sign_in",
  outcome: "success",
  actorType: "user",
  actorId: "u1",
  subjectId: "u2",
  organizationId: "o1",
  ipAddress: "127.0.0.1",
  userAgent: "test",
  requestId: "r1",
  details: '{"method":"email"}',
};

describe("the audit hash's fields and the auditTrail columns", () => {
  it("the types agree", () => {
    expect([hashedFieldsAreHashedColumns, hashedColumnsAreHashedFields]).toEqual([true, true]);
  });

  it("the migrated table has exactly the columns listed, each hashed or deliberately excluded", async () => {
    const { db, close } = openDatabase("sqlite::memory:");
    try {
      await migrateToLatest(db, "sqlite");
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info('auditTrail')`.execute(db);
      expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(COLUMNS).sort());
    } finally {
      await close();
    }
  });

  it("the hash changes with every column listed as hashed", () => {
    const hash = auditEntryHash(entry, "0".repeat(64));
    const hashed = Object.entries(COLUMNS).filter(([, how]) => how === "hashed");
    for (const [column] of hashed) {
      const field = column as keyof HashedAuditFields;
      const value = entry[field];
      const changed =
        value instanceof Date ? new Date(value.getTime() + 1) : typeof value === "number" ? value + 1 : `${value}x`;
      expect([column, auditEntryHash({ ...entry, [field]: changed }, "0".repeat(64)) !== hash]).toEqual([column, true]);
    }
  });
});
