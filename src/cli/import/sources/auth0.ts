import { dateOf, type ImportSource, type ImportUser, type SourceRecord } from "../records.js";
import { countJsonLines, jsonLines } from "./files.js";

/** Auth0's identity provider names as Gatehouse's social providers are named. */
const PROVIDERS: Record<string, string> = { "google-oauth2": "google", windowslive: "microsoft" };

type Auth0Row = Record<string, any>;

/**
 * Auth0's exports, JSON lines: the bulk user export job's (`user_id`, `email`, `identities`…), or the
 * password hashes export support sends (`_id.$oid`, `alt_id`, `passwordHash`, `identifiers`). Its
 * hashes are bcrypt, written as they are.
 */
export async function auth0Source(path: string): Promise<ImportSource> {
  async function* records(): AsyncIterable<SourceRecord> {
    for await (const { line, value } of jsonLines(path)) {
      if (!value || typeof value !== "object") {
        yield { kind: "refused", line, reason: "not a JSON object" };
        continue;
      }
      yield { kind: "user", line, user: auth0User(value as Auth0Row) };
    }
  }
  return { records, total: () => countJsonLines(path), close: async () => {} };
}

function auth0User(row: Auth0Row): ImportUser {
  const identifier = (row.identifiers as Auth0Row[] | undefined)?.find((entry) => entry?.type === "email");
  const localId = row.alt_id ?? row._id?.$oid;
  const sourceId = row.user_id ?? (localId ? `auth0|${localId}` : "");
  const fullName = [row.given_name, row.family_name].filter(Boolean).join(" ");
  const socialAccounts = ((row.identities as Auth0Row[] | undefined) ?? [])
    .filter((identity) => identity?.provider && identity.provider !== "auth0" && identity.user_id !== undefined)
    .map((identity) => ({
      providerId: PROVIDERS[identity.provider] ?? String(identity.provider),
      accountId: String(identity.user_id),
    }));
  return {
    sourceId: String(sourceId),
    email: row.email ?? identifier?.value ?? null,
    name: row.name ?? (fullName || row.nickname) ?? null,
    emailVerified: (row.email_verified ?? identifier?.verified) === true,
    image: row.picture ?? null,
    createdAt: dateOf(row.created_at?.$date ?? row.created_at),
    updatedAt: dateOf(row.updated_at?.$date ?? row.updated_at),
    passwordHash: row.passwordHash ?? row.password_hash ?? null,
    socialAccounts,
    memberships: [],
  };
}
