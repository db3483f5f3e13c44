import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../dialect.js";

/**
 * A version per organization that changes, in the same transaction, with anything its member pages
 * show. An instance answers list-members from a kept page only while that page's version is still the
 * database's (docs/read-path.md), so instances stay right without telling each other anything.
 * Triggers keep it, not each write path: they also see cascades and changes made outside the service.
 */
export function memberListVersionMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("memberListVersion")
        .addColumn("organizationId", "text", (c) => c.primaryKey().references("organization.id").onDelete("cascade"))
        // bigint: an organization changed a thousand times a second would pass 2^31 in 25 days.
        .addColumn("version", "bigint", (c) => c.notNull())
        .execute();
      await sql`insert into "memberListVersion" ("organizationId", "version") select "id", 1 from "organization"`.execute(
        db,
      );
      for (const statement of dialect === "postgres" ? postgresTriggers : sqliteTriggers)
        await sql.raw(statement).execute(db);
    },
  };
}

/** A new organization's version row, on both databases. */
const organizationCreated = `insert into "memberListVersion" ("organizationId", "version") values (NEW."id", 1)`;

// SQLite: row-level triggers (it has no others); a single writer, so no lock order to keep.
const sqliteBump = (organizations: string) =>
  `update "memberListVersion" set "version" = "version" + 1 where "organizationId" in (${organizations})`;

const sqliteTriggers = [
  `create trigger "memberListVersion_organization_insert" after insert on "organization"
   begin ${organizationCreated}; end`,
  `create trigger "memberListVersion_member_insert" after insert on "member"
   begin ${sqliteBump(`NEW."organizationId"`)}; end`,
  `create trigger "memberListVersion_member_update" after update on "member"
   begin ${sqliteBump(`OLD."organizationId", NEW."organizationId"`)}; end`,
  `create trigger "memberListVersion_member_delete" after delete on "member"
   begin ${sqliteBump(`OLD."organizationId"`)}; end`,
  `create trigger "memberListVersion_user_update" after update of "name", "email", "image" on "user"
   when OLD."name" is not NEW."name" or OLD."email" is not NEW."email" or OLD."image" is not NEW."image"
   begin ${sqliteBump(`select "organizationId" from "member" where "userId" = NEW."id"`)}; end`,
];

// PostgreSQL: statement-level triggers, so that one statement's changes (a user's deletion taking all
// their memberships) move each version once, and every version is locked in one order (by id)
// before it moves. Row by row, in the order rows happen to be found, two concurrent deletions of
// users who share organizations deadlocked (8 of 30 rounds in the test, each a failed request).
const postgresTriggers = [
  `create function "memberListVersion_bump"(organizations text[]) returns void language plpgsql as $$
   begin
     perform 1 from "memberListVersion" where "organizationId" = any(organizations)
       order by "organizationId" for update;
     update "memberListVersion" set "version" = "version" + 1 where "organizationId" = any(organizations);
   end $$`,
  `create function "memberListVersion_organization_insert"() returns trigger language plpgsql as $$
   begin ${organizationCreated}; return null; end $$`,
  `create function "memberListVersion_members_changed"() returns trigger language plpgsql as $$
   begin
     if TG_OP = 'INSERT' then
       perform "memberListVersion_bump"(array(select "organizationId" from new_members));
     elsif TG_OP = 'UPDATE' then
       perform "memberListVersion_bump"(array(
         select "organizationId" from old_members union select "organizationId" from new_members));
     else
       perform "memberListVersion_bump"(array(select "organizationId" from old_members));
     end if;
     return null;
   end $$`,
  `create function "memberListVersion_users_changed"() returns trigger language plpgsql as $$
   begin
     perform "memberListVersion_bump"(array(
       select "member"."organizationId" from new_users
       join old_users on old_users."id" = new_users."id"
       join "member" on "member"."userId" = new_users."id"
       where old_users."name" is distinct from new_users."name"
         or old_users."email" is distinct from new_users."email"
         or old_users."image" is distinct from new_users."image"));
     return null;
   end $$`,
  `create trigger "memberListVersion_organization_insert" after insert on "organization"
   for each row execute function "memberListVersion_organization_insert"()`,
  `create trigger "memberListVersion_member_insert" after insert on "member"
   referencing new table as new_members for each statement execute function "memberListVersion_members_changed"()`,
  `create trigger "memberListVersion_member_update" after update on "member"
   referencing old table as old_members new table as new_members
   for each statement execute function "memberListVersion_members_changed"()`,
  `create trigger "memberListVersion_member_delete" after delete on "member"
   referencing old table as old_members for each statement execute function "memberListVersion_members_changed"()`,
  `create trigger "memberListVersion_user_update" after update on "user"
   referencing old table as old_users new table as new_users
   for each statement execute function "memberListVersion_users_changed"()`,
];
