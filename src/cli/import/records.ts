import { createHash } from "node:crypto";
import { legacyFormatOf } from "../../server/crypto/legacy-hashes.js";

/**
 * What every source produces: users in one shape, their password hash already in a form
 * docs/migrating.md lists, so the writer knows nothing of any source.
 */
export interface ImportUser {
  /** The source's own id; `targetId` makes the id written. */
  sourceId: string;
  email: string | null;
  name: string | null;
  emailVerified: boolean;
  image: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  passwordHash: string | null;
  socialAccounts: { providerId: string; accountId: string }[];
  memberships: { organizationId: string; role: string; createdAt: Date | null }[];
}

export interface ImportOrganization {
  sourceId: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  createdAt: Date | null;
}

/** One item of a source's stream; `line` is the file's line (or the row's number, for a database). */
export type SourceRecord =
  | { kind: "organization"; line: number; organization: ImportOrganization }
  | { kind: "user"; line: number; user: ImportUser }
  | { kind: "refused"; line: number; reason: string };

export interface ImportSource {
  records(): AsyncIterable<SourceRecord>;
  /** How many user rows the source holds (for the progress bar), or null when it cannot say cheaply. */
  total?(): Promise<number | null>;
  close(): Promise<void>;
}

/** A hash format's name for the report: legacyFormatOf's, or argon2 (verified by the service's own hasher). */
export function hashFormatOf(hash: string): string | null {
  if (/^\$argon2(id|i|d)\$/.test(hash)) return "argon2";
  return legacyFormatOf(hash);
}

const PLAIN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The id written for a source's id: the same id when it is plain (better-auth's, Clerk's, Supabase's
 * uuids), so references to it elsewhere stay right and a second run finds it; otherwise (Auth0's
 * `auth0|…`) one derived from it, the same on every run.
 */
export function targetId(source: string, sourceId: string): string {
  if (PLAIN_ID.test(sourceId)) return sourceId;
  return `imp_${createHash("sha256").update(`${source}:${sourceId}`).digest("base64url").slice(0, 28)}`;
}

/** Deliberately loose (one @, a dot in the domain, no spaces): the source accepted it once already. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(email);
}

/** A date from a source's value (ISO text, epoch milliseconds, Date), or null when absent or unreadable. */
export function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date =
    value instanceof Date
      ? value
      : new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : (value as string));
  return Number.isNaN(date.getTime()) ? null : date;
}
