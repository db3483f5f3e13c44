import type { Kysely, Migration } from "kysely";

/**
 * SAML 2.0 connections (docs/sso.md) beside the OpenID Connect ones: a connection's kind, and for
 * SAML its settings as JSON (IdP entity id, SSO URL, signing certificates, SP entity id, attribute
 * mapping; nothing secret). Existing rows are OpenID Connect connections.
 */
export function ssoSamlMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("ssoProvider")
        .addColumn("type", "text", (c) => c.notNull().defaultTo("oidc"))
        .execute();
      await db.schema.alterTable("ssoProvider").addColumn("samlConfig", "text").execute();
    },
  };
}
