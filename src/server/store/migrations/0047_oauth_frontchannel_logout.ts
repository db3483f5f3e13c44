import type { Kysely, Migration } from "kysely";

/** OpenID Connect Front-Channel Logout 1.0: where a client's page for ending its session is (docs/oauth-provider.md). */
export function oauthFrontchannelLogoutMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("oauthClient").addColumn("frontchannelLogoutUri", "text").execute();
    },
  };
}
