import type { SetupScope } from "../../contract/setup-links.js";
import type { DB } from "./db.js";
import { toDate, toDateOrNull } from "./values.js";

/** A setup link as stored: `secretHash` is the SHA-256 digest of its secret, never the secret. */
export interface SetupLinkRow {
  id: string;
  organizationId: string;
  secretHash: string;
  scopes: SetupScope[];
  label: string | null;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
  lastUsedAt: Date | null;
}

type Raw = Omit<SetupLinkRow, "scopes" | "createdAt" | "expiresAt" | "revokedAt" | "lastUsedAt"> & {
  scopes: string;
  createdAt: Date | string;
  expiresAt: Date | string;
  revokedAt: Date | string | null;
  lastUsedAt: Date | string | null;
};

function mapRow(row: Raw): SetupLinkRow {
  return {
    ...row,
    scopes: JSON.parse(row.scopes) as SetupScope[],
    createdAt: toDate(row.createdAt),
    expiresAt: toDate(row.expiresAt),
    revokedAt: toDateOrNull(row.revokedAt),
    lastUsedAt: toDateOrNull(row.lastUsedAt),
  };
}

export async function insertSetupLink(db: DB, row: SetupLinkRow): Promise<void> {
  await db
    .insertInto("setupLink")
    .values({ ...row, scopes: JSON.stringify(row.scopes) })
    .execute();
}

export async function findSetupLink(db: DB, id: string): Promise<SetupLinkRow | null> {
  const row = await db.selectFrom("setupLink").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? mapRow(row) : null;
}

/** Newest first. */
export async function listSetupLinks(db: DB, organizationId: string): Promise<SetupLinkRow[]> {
  const rows = await db
    .selectFrom("setupLink")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
  return rows.map(mapRow);
}

/** Revokes a live link; false when it was revoked already (the first revocation's record stays). */
export async function revokeSetupLinkRow(db: DB, id: string, by: string | null, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("setupLink")
    .set({ revokedAt: at, revokedBy: by })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function touchSetupLink(db: DB, id: string, at: Date): Promise<void> {
  await db.updateTable("setupLink").set({ lastUsedAt: at }).where("id", "=", id).execute();
}
