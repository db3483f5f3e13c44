import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Webhooks an organization's owners manage themselves (docs/webhooks.md, "An organization's own").
 * The signing secret is kept encrypted (the receiver needs it to verify, so it cannot be a digest).
 * A delivery names the subscription it is for (`endpointId`; null for the configured webhooks), so
 * the worker signs with that subscription's secret and stops when it is deleted or disabled.
 */
export function organizationWebhooksMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("organizationWebhook")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull())
        // A JSON array of event names.
        .addColumn("events", "text", (c) => c.notNull())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("enabled", t.boolean, (c) => c.notNull().defaultTo(true))
        .addColumn("createdBy", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .addColumn("lastDeliveryAt", t.timestamp)
        .addColumn("lastDeliveryError", "text")
        // One subscription per URL in an organization (two would deliver each event twice); it is
        // also the index an event's enqueue reads by organization.
        .addUniqueConstraint("organizationWebhook_organization_url_key", ["organizationId", "url"])
        .execute();
      await db.schema.alterTable("webhookDelivery").addColumn("endpointId", "text").execute();
    },
  };
}
