import type { DB } from "./db.js";
import { countAll, roleColumnHas } from "./organizations.js";

/** An organization the user belongs to, with its member and owner counts (the user included). */
export interface MembershipOwners {
  organizationId: string;
  members: number;
  owners: number;
  /** Whether the user is one of the owners. */
  ownedByUser: boolean;
}

/** Every organization the user belongs to with its counts, in id order (the order its locks are taken in). */
export async function listMembershipOwners(db: DB, userId: string, ownerRole: string): Promise<MembershipOwners[]> {
  const rows = await db
    .selectFrom("member")
    .select((eb) => {
      const owner = roleColumnHas(eb, ownerRole);
      const count = (when: ReturnType<typeof eb.and>) =>
        eb.fn.sum<number | string>(eb.case().when(when).then(1).else(0).end());
      return [
        "member.organizationId",
        countAll.as("members"),
        count(eb.and([owner])).as("owners"),
        count(eb.and([owner, eb("member.userId", "=", userId)])).as("ownedByUser"),
      ];
    })
    .where("member.organizationId", "in", (eb) =>
      eb.selectFrom("member").select("member.organizationId").where("member.userId", "=", userId),
    )
    .groupBy("member.organizationId")
    .orderBy("member.organizationId")
    .execute();
  return rows.map((row) => ({
    organizationId: row.organizationId,
    members: Number(row.members),
    owners: Number(row.owners),
    ownedByUser: Number(row.ownedByUser) > 0,
  }));
}
