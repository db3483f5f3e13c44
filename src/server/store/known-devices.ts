import type { DB } from "./db.js";

/** A sign-in from a device the user has used before: it is seen again now. Answers whether it was known. */
export async function touchKnownDevice(
  db: DB,
  device: { userId: string; deviceHash: string; userAgent: string | null; ipAddress: string | null; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable("knownDevice")
    .set({ lastSeenAt: device.now, userAgent: device.userAgent, ipAddress: device.ipAddress })
    .where("userId", "=", device.userId)
    .where("deviceHash", "=", device.deviceHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Claims the device for the user: true for the one insert that made the row (of any number racing),
 * false when another got there first. The (userId, deviceHash) key decides.
 */
export async function claimKnownDevice(
  db: DB,
  device: {
    id: string;
    userId: string;
    deviceHash: string;
    userAgent: string | null;
    ipAddress: string | null;
    now: Date;
  },
): Promise<boolean> {
  const rows = await db
    .insertInto("knownDevice")
    .values({
      id: device.id,
      userId: device.userId,
      deviceHash: device.deviceHash,
      userAgent: device.userAgent,
      ipAddress: device.ipAddress,
      createdAt: device.now,
      lastSeenAt: device.now,
    })
    .onConflict((conflict) => conflict.columns(["userId", "deviceHash"]).doNothing())
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Whether the user has signed in from any device but this one. */
export async function hasOtherKnownDevice(db: DB, userId: string, deviceHash: string): Promise<boolean> {
  const row = await db
    .selectFrom("knownDevice")
    .select("id")
    .where("userId", "=", userId)
    .where("deviceHash", "!=", deviceHash)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
