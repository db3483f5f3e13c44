import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * SCIM Groups (docs/scim.md) and team roles (docs/configuration.md, "Team roles").
 *
 * `scimGroup` is a group one connection pushed; the owner may map it to an organization role
 * (`role`) or to a team (`teamId`, with an optional team role), else it grants nothing.
 * `scimGroupMember` holds the directory's members of each group: users of the same connection.
 * `teamMember.role` is a member's role within the team; null means the team's default role.
 */
export function scimGroupsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("scimGroup")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("providerId", "text", (c) => c.notNull())
        .addColumn("displayName", "text", (c) => c.notNull())
        .addColumn("externalId", "text")
        .addColumn("role", "text")
        .addColumn("teamId", "text", (c) => c.references("team.id").onDelete("set null"))
        .addColumn("teamRole", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("scimGroup_connection_idx")
        .on("scimGroup")
        .columns(["organizationId", "providerId", "displayName"])
        .execute();
      await db.schema.createIndex("scimGroup_teamId_idx").on("scimGroup").column("teamId").execute();
      await db.schema
        .createTable("scimGroupMember")
        .addColumn("groupId", "text", (c) => c.notNull().references("scimGroup.id").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("scimGroupMember_pkey", ["groupId", "userId"])
        .execute();
      await db.schema.createIndex("scimGroupMember_userId_idx").on("scimGroupMember").column("userId").execute();
      await db.schema.alterTable("teamMember").addColumn("role", "text").execute();
    },
  };
}
