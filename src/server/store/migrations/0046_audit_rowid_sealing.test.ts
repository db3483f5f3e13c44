import { Migrator, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../database.js";
import { migrations } from "./index.js";

describe("migration 0046 (SQLite: sealing in rowid order)", () => {
  const { db, close } = openDatabase("sqlite::memory:");
  afterAll(() => close());

  it("moves an entry the time-ordered sealer left before the head's row to the end, and drops the unsealed index", async () => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations("sqlite") },
      migrationTableName: "gatehouse_migration",
      migrationLockTableName: "gatehouse_migration_lock",
      allowUnorderedMigrations: true,
    });
    expect((await migrator.migrateTo("0045_setup_link_expiry")).error).toBeUndefined();
    // As the earlier sealer could leave it: a batch took "b" (older) and left "a" (inserted first, written later).
    const entry = (id: string, createdAt: string, seq: number | null) =>
      sql`insert into "auditTrail" ("id", "createdAt", "action", "outcome", "actorType", "seq", "hash")
          values (${id}, ${createdAt}, 'user.updated', 'success', 'user', ${seq}, ${seq === null ? null : `h${seq}`})`.execute(
        db,
      );
    await entry("a", "2026-12-06T00:00:02.000Z", null);
    await entry("b", "2026-12-06T00:00:01.000Z", 1);
    await entry("c", "2026-12-06T00:00:03.000Z", null);
    await sql`update "auditChain" set "headSeq" = 1, "headHash" = 'h1' where "id" = 1`.execute(db);

    await migrateToLatest(db, "sqlite");

    const { rows } = await sql<{ id: string; seq: number | null }>`
      select "id", "seq" from "auditTrail" order by rowid`.execute(db);
    // Every unsealed entry after the head's row, in the order the earlier sealer would have taken them.
    expect(rows).toEqual([
      { id: "b", seq: 1 },
      { id: "a", seq: null },
      { id: "c", seq: null },
    ]);
    const indexes = await sql<{ name: string }>`
      select "name" from sqlite_master where "type" = 'index' and "tbl_name" = 'auditTrail'`.execute(db);
    expect(indexes.rows.map((row) => row.name)).not.toContain("auditTrail_unsealed_idx");
  });
});
