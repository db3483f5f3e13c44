import type { DB } from "./db.js";
import { toBool, toDate, toDateOrNull } from "./values.js";

/** An organization's own webhook as stored; `secret` is the encrypted text (crypto/encryption.ts). */
export interface OrganizationWebhookRow {
  id: string;
  organizationId: string;
  url: string;
  events: string[];
  secret: string;
  enabled: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  lastDeliveryAt: Date | null;
  lastDeliveryError: string | null;
}

type Raw = {
  id: string;
  organizationId: string;
  url: string;
  events: string;
  secret: string;
  enabled: boolean | number;
  createdBy: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  lastDeliveryAt: Date | string | null;
  lastDeliveryError: string | null;
};

function mapRow(row: Raw): OrganizationWebhookRow {
  return {
    ...row,
    events: JSON.parse(row.events) as string[],
    enabled: toBool(row.enabled),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    lastDeliveryAt: toDateOrNull(row.lastDeliveryAt),
  };
}

export async function insertOrganizationWebhook(db: DB, row: OrganizationWebhookRow): Promise<void> {
  await db
    .insertInto("organizationWebhook")
    .values({ ...row, events: JSON.stringify(row.events) })
    .execute();
}

export async function findOrganizationWebhook(db: DB, id: string): Promise<OrganizationWebhookRow | null> {
  const row = await db.selectFrom("organizationWebhook").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? mapRow(row) : null;
}

export async function listOrganizationWebhooks(db: DB, organizationId: string): Promise<OrganizationWebhookRow[]> {
  const rows = await db
    .selectFrom("organizationWebhook")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map(mapRow);
}

/** The enabled subscriptions of these organizations: what an event's enqueue reads (never the secret). */
export async function subscribedOrganizationWebhooks(
  db: DB,
  organizationIds: readonly string[],
): Promise<{ id: string; organizationId: string; url: string; events: string[] }[]> {
  const rows = await db
    .selectFrom("organizationWebhook")
    .select(["id", "organizationId", "url", "events"])
    .where("organizationId", "in", organizationIds)
    .where("enabled", "=", true)
    .execute();
  return rows.map((row) => ({ ...row, events: JSON.parse(row.events) as string[] }));
}

export async function updateOrganizationWebhook(
  db: DB,
  id: string,
  patch: Partial<Pick<OrganizationWebhookRow, "url" | "events" | "enabled" | "secret">> & { updatedAt: Date },
): Promise<void> {
  const { events, ...rest } = patch;
  await db
    .updateTable("organizationWebhook")
    .set({ ...rest, ...(events ? { events: JSON.stringify(events) } : {}) })
    .where("id", "=", id)
    .execute();
}

export async function deleteOrganizationWebhook(db: DB, id: string): Promise<void> {
  await db.deleteFrom("organizationWebhook").where("id", "=", id).execute();
}

/** What the last delivery attempt came to (null error: delivered). */
export async function recordWebhookAttempt(db: DB, id: string, at: Date, error: string | null): Promise<void> {
  await db
    .updateTable("organizationWebhook")
    .set({ lastDeliveryAt: at, lastDeliveryError: error })
    .where("id", "=", id)
    .execute();
}
