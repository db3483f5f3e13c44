import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { AUDIT_ENTRY_COLUMNS, auditTrailEntryModel } from "../../contract/audit.js";
import { migrateToLatest, openDatabase } from "../store/database.js";
import { auditEntryBody, auditEntryHash, type HashedAuditFields } from "./hash.js";

/**
 * The entry's fields are declared once (contract/audit.ts, AUDIT_ENTRY_FIELDS); the table, the hash
 * and the wire model must all follow that one list. Nothing here lists a column again: a field added
 * to the declaration without its migration, or a hash that leaves one out or takes it in another
 * order, fails below.
 */
const entry = Object.fromEntries(
  AUDIT_ENTRY_COLUMNS.map((column, i) => [column, column === "createdAt" ? new Date(Date.UTC(2026, 10, 26)) : `v${i}`]),
) as unknown as HashedAuditFields;
const full: HashedAuditFields = { ...entry, seq: 7 };
const ZERO = "0".repeat(64);

describe("the audit entry's one column list", () => {
  it("is the migrated table's columns, with `seq` and `hash` (the sealer's)", async () => {
    const { db, close } = openDatabase("sqlite::memory:");
    try {
      await migrateToLatest(db, "sqlite");
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info('auditTrail')`.execute(db);
      expect(rows.map((row) => row.name).sort()).toEqual(["seq", ...AUDIT_ENTRY_COLUMNS, "hash"].sort());
    } finally {
      await close();
    }
  });

  it("is the wire model's fields, in order", () => {
    expect(Object.keys(auditTrailEntryModel.shape)).toEqual(["seq", ...AUDIT_ENTRY_COLUMNS, "hash"]);
  });

  it("is the hash's input, each field in its place", () => {
    const encoded = JSON.parse(`[${auditEntryBody(full)}]`) as unknown[];
    expect(encoded).toEqual(
      AUDIT_ENTRY_COLUMNS.map((column) => (column === "createdAt" ? "2026-11-26T00:00:00.000Z" : full[column])),
    );
  });

  it("hashes every field: changing any one changes the hash", () => {
    const hash = auditEntryHash(full, ZERO);
    for (const column of AUDIT_ENTRY_COLUMNS) {
      const value = full[column];
      const changed = value instanceof Date ? new Date(value.getTime() + 1) : `${value}x`;
      expect([column, auditEntryHash({ ...full, [column]: changed }, ZERO) !== hash]).toEqual([column, true]);
    }
    expect(auditEntryHash({ ...full, seq: 8 }, ZERO)).not.toBe(hash);
  });
});
