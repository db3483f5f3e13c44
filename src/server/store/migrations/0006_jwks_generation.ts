import type { Kysely, Migration } from "kysely";

/**
 * Key generations: the first key is generation 1, each rotation the next. The unique index makes
 * "create the next key" a decision the database takes once, however many instances race for it.
 */
export function jwksGenerationMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("jwks").addColumn("generation", "integer").execute();
      await db.schema.createIndex("jwks_generation_key").on("jwks").column("generation").unique().execute();
    },
  };
}
