import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { organization } from "better-auth/plugins";
import Database from "better-sqlite3";
import pg from "pg";

export interface BetterAuthPerson {
  email: string;
  password: string;
  name: string;
}

/** What better-auth's own code adds besides sign-ups: verified addresses, accounts at a provider. */
export interface BetterAuthExtras {
  /** Emails marked verified (as better-auth's email verification would). */
  verified?: string[];
  /** Provider accounts linked to a person, with the OAuth tokens better-auth keeps for them. */
  socialAccounts?: { email: string; providerId: string; accountId: string }[];
}

/**
 * A better-auth database (an SQLite file path or a PostgreSQL URL) made by better-auth itself (its migrations, sign-ups and organization
 * plugin), as a team moving to Gatehouse would have it: the people, and one organization that the
 * first owns and the others are members of (role "admin").
 */
export async function makeBetterAuthDatabase(
  location: string,
  people: BetterAuthPerson[],
  slug: string,
  extras: BetterAuthExtras = {},
): Promise<{ userIds: string[]; organizationId: string }> {
  const database = location.startsWith("postgres")
    ? new pg.Pool({ connectionString: location })
    : new Database(location);
  const auth = betterAuth({
    database,
    secret: "better-auth-source-secret-0123456789abcdef",
    baseURL: "http://localhost:3000",
    emailAndPassword: { enabled: true },
    plugins: [organization()],
    logger: { disabled: true },
  });
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  const userIds: string[] = [];
  for (const person of people) userIds.push((await auth.api.signUpEmail({ body: person })).user.id);
  const made = await auth.api.createOrganization({ body: { name: `Org ${slug}`, slug, userId: userIds[0] } });
  for (const userId of userIds.slice(1)) {
    await auth.api.addMember({ body: { userId, organizationId: made!.id, role: "admin" } });
  }
  const context = await auth.$context;
  const idOf = (email: string) => userIds[people.findIndex((person) => person.email === email)]!;
  for (const email of extras.verified ?? []) {
    await context.internalAdapter.updateUser(idOf(email), { emailVerified: true });
  }
  for (const account of extras.socialAccounts ?? []) {
    await context.internalAdapter.linkAccount({
      userId: idOf(account.email),
      providerId: account.providerId,
      accountId: account.accountId,
      accessToken: `access-token-of-${account.accountId}`,
      refreshToken: `refresh-token-of-${account.accountId}`,
      scope: "openid,email,profile",
    });
  }
  if (database instanceof pg.Pool) await database.end();
  else database.close();
  return { userIds, organizationId: made!.id };
}
