import { dateOf, type ImportSource, type SourceRecord } from "../records.js";
import { openSqlReader, SourceError } from "./sql-reader.js";

const PAGE = 1000;

/**
 * A better-auth database (SQLite or PostgreSQL) with its default schema and, when present, the
 * organization plugin's tables. Its password hashes (`salt:key` scrypt, or whatever its hash
 * function wrote) go over as they are; access tokens do not (the user signs in with the provider again).
 */
export async function betterAuthSource(location: string): Promise<ImportSource> {
  const reader = await openSqlReader(location);
  const tables = await tableNames(reader, location);
  if (!tables.has("user") || !tables.has("account")) {
    await reader.close();
    throw new SourceError(`${location} has no better-auth "user" and "account" tables`);
  }
  const hasOrganizations = tables.has("organization") && tables.has("member");

  async function* records(): AsyncIterable<SourceRecord> {
    let row = 0;
    if (hasOrganizations) {
      for (const organization of await reader.all(`select * from "organization" order by "id"`)) {
        row += 1;
        yield {
          kind: "organization",
          line: row,
          organization: {
            sourceId: String(organization.id),
            name: String(organization.name),
            slug: String(organization.slug),
            logo: (organization.logo as string | null) ?? null,
            metadata: (organization.metadata as string | null) ?? null,
            createdAt: dateOf(organization.createdAt),
          },
        };
      }
    }
    row = 0;
    let after = "";
    for (;;) {
      const users = await reader.all(`select * from "user" where "id" > ? order by "id" limit ${PAGE}`, [after]);
      if (users.length === 0) break;
      after = String(users.at(-1)!.id);
      const ids = users.map((user) => String(user.id));
      const marks = ids.map(() => "?").join(", ");
      const accounts = await reader.all(`select * from "account" where "userId" in (${marks})`, ids);
      const members = hasOrganizations
        ? await reader.all(`select * from "member" where "userId" in (${marks})`, ids)
        : [];
      for (const user of users) {
        row += 1;
        const own = accounts.filter((account) => account.userId === user.id);
        const credential = own.find((account) => account.providerId === "credential");
        yield {
          kind: "user",
          line: row,
          user: {
            sourceId: String(user.id),
            email: (user.email as string | null) ?? null,
            name: (user.name as string | null) ?? null,
            emailVerified: user.emailVerified === true || user.emailVerified === 1,
            image: (user.image as string | null) ?? null,
            createdAt: dateOf(user.createdAt),
            updatedAt: dateOf(user.updatedAt),
            passwordHash: (credential?.password as string | null | undefined) ?? null,
            socialAccounts: own
              .filter((account) => account.providerId !== "credential")
              .map((account) => ({ providerId: String(account.providerId), accountId: String(account.accountId) })),
            memberships: members
              .filter((member) => member.userId === user.id)
              .map((member) => ({
                organizationId: String(member.organizationId),
                role: String(member.role),
                createdAt: dateOf(member.createdAt),
              })),
          },
        };
      }
    }
  }

  const total = async () => Number((await reader.all(`select count(*) as n from "user"`))[0]?.n ?? 0);
  return { records, total, close: () => reader.close() };
}

async function tableNames(reader: Awaited<ReturnType<typeof openSqlReader>>, location: string): Promise<Set<string>> {
  const rows = /^postgres/.test(location)
    ? await reader.all(`select table_name as name from information_schema.tables where table_schema = current_schema()`)
    : await reader.all(`select name from sqlite_master where type = 'table'`);
  return new Set(rows.map((row) => String(row.name)));
}
