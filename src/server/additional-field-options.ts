import { z } from "zod";

/**
 * The option schema of `user.additionalFields`, `session.additionalFields` and
 * `organization.additionalFields` (better-auth's shape, JSON-expressible): each key is a column of
 * its own, so its name must be a plain identifier and none of the names the table or its replies use.
 */

export const ADDITIONAL_FIELD_TYPES = ["string", "number", "boolean", "date"] as const;
export type AdditionalFieldType = (typeof ADDITIONAL_FIELD_TYPES)[number];

export type FieldTable = "user" | "session" | "organization";

/** Letters, digits and `_`, starting with a letter: safe as a quoted column name in both dialects. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/**
 * Names a field may not take: the table's columns, and the keys its replies and request bodies
 * already use. Compared case-insensitively, as SQLite compares column names.
 */
const RESERVED: Record<FieldTable, readonly string[]> = {
  user: [
    "id",
    "name",
    "email",
    "emailVerified",
    "image",
    "isAnonymous",
    "role",
    "banned",
    "banReason",
    "banExpires",
    "twoFactorEnabled",
    "createdAt",
    "updatedAt",
    "password",
    "callbackURL",
    "rememberMe",
  ],
  session: [
    "id",
    "token",
    "tokenHash",
    "userId",
    "expiresAt",
    "ipAddress",
    "userAgent",
    "activeOrganizationId",
    "activeTeamId",
    "impersonatedBy",
    "createdAt",
    "updatedAt",
    "current",
  ],
  organization: [
    "id",
    "name",
    "slug",
    "logo",
    "metadata",
    "createdAt",
    "members",
    "invitations",
    "teams",
    "userId",
    "organizationId",
    "keepCurrentActiveOrganization",
    "data",
  ],
};

const reservedSets = Object.fromEntries(
  Object.entries(RESERVED).map(([table, names]) => [table, new Set(names.map((n) => n.toLowerCase()))]),
) as Record<FieldTable, Set<string>>;

/** Whether a default suits its field's type (a date's is ISO 8601 text, since JSON has no dates). */
function defaultFits(type: AdditionalFieldType, value: unknown): boolean {
  if (value === null) return true;
  if (type === "date") return typeof value === "string" && !Number.isNaN(Date.parse(value));
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeof value === type;
}

const additionalField = z
  .strictObject({
    type: z.enum(ADDITIONAL_FIELD_TYPES),
    /** Sign-up (or create) refuses a body without it, unless it has a default. */
    required: z.boolean().default(false),
    defaultValue: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    /** false: server-only; a client that sends it gets 400 FIELD_NOT_ALLOWED. */
    input: z.boolean().default(true),
    /** false: stored but never in a reply. */
    returned: z.boolean().default(true),
  })
  .superRefine((field, ctx) => {
    if (field.defaultValue !== undefined && !defaultFits(field.type, field.defaultValue)) {
      ctx.addIssue({
        code: "custom",
        path: ["defaultValue"],
        message: `must be a ${field.type === "date" ? "date as ISO 8601 text" : field.type} (or null)`,
      });
    }
  });

export type AdditionalFieldOption = z.output<typeof additionalField>;

/** The `additionalFields` option of one table: field name -> definition. */
export function additionalFields(table: FieldTable) {
  const name = z
    .string()
    .regex(FIELD_NAME, "a field name is a letter then letters, digits or '_' (at most 63)")
    .refine((n) => !reservedSets[table].has(n.toLowerCase()), {
      message: `is a name the ${table} already uses (${RESERVED[table].join(", ")})`,
    });
  return z.record(name, additionalField).default({});
}
