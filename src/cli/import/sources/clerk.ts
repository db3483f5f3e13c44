import type { ImportSource, SourceRecord } from "../records.js";
import { countCsvRecords, csvRecords } from "./files.js";

/**
 * Clerk's user export (CSV from its dashboard). `password_hasher` says how `password_digest` was
 * made; the hashers whose digest is already a form Gatehouse verifies go over as they are, any other
 * is refused with its name (that user resets their password).
 */
const DIGESTS_AS_WRITTEN = new Set(["bcrypt", "argon2i", "argon2id", "pbkdf2_sha256_django", "phpass"]);

export async function clerkSource(path: string): Promise<ImportSource> {
  async function* records(): AsyncIterable<SourceRecord> {
    for await (const { line, value: row } of csvRecords(path)) {
      const hasher = row.password_hasher?.trim() ?? "";
      const digest = row.password_digest?.trim() ?? "";
      if (digest !== "" && !DIGESTS_AS_WRITTEN.has(hasher)) {
        yield { kind: "refused", line, reason: `unknown hash format (Clerk hasher "${hasher}")` };
        continue;
      }
      const email = row.primary_email_address?.trim() ?? "";
      const verified = (row.verified_email_addresses ?? "").toLowerCase().includes(email.toLowerCase());
      yield {
        kind: "user",
        line,
        user: {
          sourceId: row.id ?? "",
          email: email || null,
          name: [row.first_name, row.last_name].filter(Boolean).join(" ") || row.username || null,
          emailVerified: email !== "" && verified,
          image: null,
          createdAt: null,
          updatedAt: null,
          passwordHash: digest || null,
          socialAccounts: [],
          memberships: [],
        },
      };
    }
  }
  return { records, total: () => countCsvRecords(path), close: async () => {} };
}
