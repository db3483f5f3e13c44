import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../store/database.js";

/**
 * SQLite's reader indexes hold sealed entries only (migration 0041), and unsealed entries have no
 * index (0046): each read of the trail must still find its index or rowid range, or it would scan
 * the whole trail. The reads as listAuditTrail, the sealer,
 * the chain check and retention send them.
 */
describe("SQLite's audit trail reads use its partial indexes", () => {
  const { db, close } = openDatabase("sqlite::memory:");
  beforeAll(() => migrateToLatest(db, "sqlite"));
  afterAll(() => close());

  const plan = async (query: string) => {
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db);
    return rows.map((row) => row.detail).join(" | ");
  };
  const sealed = `select * from "auditTrail"`;
  // As audit/trail.store.ts, sqliteUnsealedAfter, writes it.
  const afterHead = (headSeq: string) =>
    `coalesce((select rowid from "auditTrail" where "seq" = ${headSeq}), (select rowid from "auditTrail" where "seq" is not null order by "seq" desc limit 1), 0)`;

  it.each([
    [
      `${sealed} where "actorId" = 'a' and "seq" is not null order by "seq" desc limit 10`,
      "auditTrail_actorId_seq_idx",
    ],
    [
      `${sealed} where "subjectId" = 'a' and "seq" is not null order by "seq" desc limit 10`,
      "auditTrail_subjectId_seq_idx",
    ],
    [
      `${sealed} where "organizationId" = 'o' and "seq" < 9 and "seq" is not null order by "seq" desc limit 10`,
      "auditTrail_organizationId_partial_idx",
    ],
    [`${sealed} where "seq" is not null order by "seq" desc limit 10`, "auditTrail_seq_key"],
    [`${sealed} where "seq" >= 1 and "seq" <= 9 order by "seq" limit 10`, "auditTrail_seq_key"],
    [
      `select "seq" from "auditTrail" where "seq" is not null and "createdAt" < '2026' order by "seq" desc limit 1`,
      "auditTrail_",
    ],
    // Unsealed entries are the rows after the sealed head's (migration 0046), found through `seq`'s index.
    [
      `${sealed} where "seq" is null and rowid > ${afterHead(`(select "headSeq" from "auditChain" where "id" = 1)`)} and "subjectId" = 'a' order by "createdAt" desc limit 10`,
      "SEARCH auditTrail USING INTEGER PRIMARY KEY (rowid>?)",
    ],
    [
      `select rowid, * from "auditTrail" where "seq" is null and rowid > ${afterHead("7")} order by rowid limit 500`,
      "SEARCH auditTrail USING INTEGER PRIMARY KEY (rowid>?)",
    ],
    [`select * from "auditTrail" where "seq" = 7`, "auditTrail_seq_key"],
  ])("%s", async (query, index) => {
    const detail = await plan(query);
    expect(detail).toContain(index);
    expect(detail).not.toMatch(/SCAN "?auditTrail"?(?! USING)/);
  });

  it("a read that does not say so scans the table (why every read says `seq is not null`)", async () => {
    const detail = await plan(`${sealed} where "subjectId" = 'a' order by "seq" desc limit 10`);
    expect(detail).not.toContain("auditTrail_subjectId_seq_idx");
  });
});
