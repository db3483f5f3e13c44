import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest, type OpenedDatabase, openDatabase } from "../database.js";
import { readPrecompiled } from "./precompiled.js";

let opened: OpenedDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function database() {
  opened = openDatabase("sqlite::memory:");
  await migrateToLatest(opened.db, opened.dialect);
  const at = new Date("2026-01-01T00:00:00.000Z");
  await opened.db
    .insertInto("organization")
    .values(
      ["a", "b", "c"].map((id, i) => ({
        id,
        name: id.toUpperCase(),
        slug: id,
        logo: null,
        metadata: null,
        createdAt: new Date(at.getTime() + i * 1000),
      })),
    )
    .execute();
  return opened;
}

describe("readPrecompiled", () => {
  it("compiles once per shape and binds each call's values by position, dates as SQLite stores them", async () => {
    const { db, queryCount } = await database();
    const since = (args: readonly unknown[]) =>
      db
        .selectFrom("organization")
        .select("id")
        .where("createdAt", ">", args[0] as Date)
        .where("id", "!=", args[1] as string)
        .orderBy("createdAt");
    const before = queryCount();
    const first = await readPrecompiled(db, "since", [new Date("2026-01-01T00:00:00.500Z"), "c"], since);
    const second = await readPrecompiled(db, "since", [new Date("2025-01-01T00:00:00.000Z"), "b"], since);
    expect(first.map((r) => r.id)).toEqual(["b"]);
    expect(second.map((r) => r.id)).toEqual(["a", "c"]);
    expect(queryCount() - before).toBe(2);
  });

  it("refuses a query that folds an argument into another value (it could not be re-bound)", async () => {
    const { db } = await database();
    await expect(
      readPrecompiled(db, "pattern", ["a"], (args) =>
        db
          .selectFrom("organization")
          .select("id")
          .where("slug", "like", `${args[0] as string}%`),
      ),
    ).rejects.toThrow(/argument inside another value/);
  });

  it("inside a transaction reads through it and sees its uncommitted rows", async () => {
    const { db } = await database();
    const bySlug = (args: readonly unknown[]) =>
      db
        .selectFrom("organization")
        .select("id")
        .where("slug", "=", args[0] as string);
    await readPrecompiled(db, "bySlug", ["a"], bySlug); // compiled and cached on the database
    await db.transaction().execute(async (trx) => {
      await sql`update organization set slug = 'z' where id = 'a'`.execute(trx);
      const inside = await readPrecompiled(trx, "bySlug", ["z"], (args) =>
        trx
          .selectFrom("organization")
          .select("id")
          .where("slug", "=", args[0] as string),
      );
      expect(inside.map((r) => r.id)).toEqual(["a"]);
    });
  });
});
