import { dateOf, type ImportSource, type SourceRecord } from "../records.js";
import { countCsvRecords, csvRecords, jsonDocument } from "./files.js";
import { SourceError } from "./sql-reader.js";

/**
 * Supabase's `auth.users`, as JSON (an array of rows, e.g. `select json_agg(u) from auth.users u`) or
 * CSV (`\copy auth.users to … csv header`). Its `encrypted_password` is bcrypt, written as it is.
 */
export async function supabaseSource(path: string): Promise<ImportSource> {
  const csv = path.toLowerCase().endsWith(".csv");
  const document = csv ? null : await jsonDocument(path);
  if (!csv && !Array.isArray(document)) throw new SourceError(`${path} is not a JSON array of auth.users rows`);
  async function* rows(): AsyncIterable<{ line: number; value: Record<string, unknown> }> {
    if (csv) {
      yield* csvRecords(path);
      return;
    }
    for (const [index, value] of (document as Record<string, unknown>[]).entries()) yield { line: index + 1, value };
  }
  async function* records(): AsyncIterable<SourceRecord> {
    for await (const { line, value: row } of rows()) {
      const meta = metadataOf(row.raw_user_meta_data);
      yield {
        kind: "user",
        line,
        user: {
          sourceId: String(row.id ?? ""),
          email: (row.email as string | undefined) || null,
          name: (meta.full_name ?? meta.name ?? null) as string | null,
          emailVerified: dateOf(row.email_confirmed_at) !== null,
          image: (meta.avatar_url ?? meta.picture ?? null) as string | null,
          createdAt: dateOf(row.created_at),
          updatedAt: dateOf(row.updated_at),
          passwordHash: (row.encrypted_password as string | undefined) || null,
          socialAccounts: [],
          memberships: [],
        },
      };
    }
  }
  return {
    records,
    total: async () => (csv ? countCsvRecords(path) : (document as unknown[]).length),
    close: async () => {},
  };
}

/** raw_user_meta_data: an object in JSON, its JSON text in CSV. */
function metadataOf(value: unknown): Record<string, unknown> {
  if (value && typeof value === "object") return value as Record<string, unknown>;
  if (typeof value !== "string" || value === "") return {};
  try {
    const parsed = JSON.parse(value);
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}
