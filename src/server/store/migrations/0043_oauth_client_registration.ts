import type { Kysely, Migration } from "kysely";

/**
 * RFC 7592 client management: a dynamically registered client's registration access token, kept as
 * its SHA-256 digest (256 random bits, as client secrets). Null for every other client.
 */
export function oauthClientRegistrationMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("oauthClient").addColumn("registrationAccessTokenHash", "text").execute();
    },
  };
}
