import { z } from "zod";
import { updateUserBody } from "../../contract/account.js";
import {
  changeEmailBody,
  changePasswordBody,
  requestPasswordResetBody,
  resetPasswordBody,
} from "../../contract/account-flows.js";
import { banUserBody, createUserBody, listUsersQuery, setUserPasswordBody } from "../../contract/admin.js";
import { isMessageKey, type MessageKey, type MessageVars } from "../../i18n/index.js";

/**
 * Form validation with the server's own request schemas (src/contract), tightened where the
 * server checks in its service (email format, password length from the configuration). Messages are
 * catalogue keys (src/i18n); the field translates them when it shows them.
 */
const email = z.email("validation.email");
export const passwordRule = (min: number, max: number) =>
  z.string().min(min, "validation.minLength").max(max, "validation.maxLength");

export const profileForm = updateUserBody.extend({
  name: z.string().trim().min(1, "validation.name"),
  image: z.union([z.url("validation.imageUrl"), z.literal("")]).optional(),
});
export const emailForm = requestPasswordResetBody.pick({ email: true }).extend({ email });
export const changeEmailForm = changeEmailBody.pick({ newEmail: true }).extend({ newEmail: email });
export const changePasswordForm = (min: number, max: number) =>
  changePasswordBody
    .extend({
      currentPassword: z.string().min(1, "validation.currentPassword"),
      newPassword: passwordRule(min, max),
    })
    // The server refuses it too (NEW_PASSWORD_SAME_AS_CURRENT); saying so here saves the round trip.
    .refine((v) => v.newPassword !== v.currentPassword, {
      message: "error.NEW_PASSWORD_SAME_AS_CURRENT",
      path: ["newPassword"],
    });
export const resetPasswordForm = (min: number, max: number) =>
  resetPasswordBody.pick({ newPassword: true }).extend({ newPassword: passwordRule(min, max) });

/** Ban lengths an admin picks from, in seconds ("" = until unbanned). */
export const BAN_DURATIONS = [
  { value: "", label: "admin.ban.duration.untilUnbanned" },
  { value: "3600", label: "admin.ban.duration.hour" },
  { value: "86400", label: "admin.ban.duration.day" },
  { value: "604800", label: "admin.ban.duration.week" },
  { value: "2592000", label: "admin.ban.duration.month" },
] as const satisfies readonly { value: string; label: MessageKey }[];
export const banForm = banUserBody.pick({ banReason: true }).extend({
  banReason: z.string().trim().max(500, "validation.maxLength"),
  banExpiresIn: z.enum(BAN_DURATIONS.map((d) => d.value)),
});
export const setUserPasswordForm = (min: number, max: number) =>
  setUserPasswordBody.pick({ newPassword: true }).extend({ newPassword: passwordRule(min, max) });
/** The built-in admin roles an admin picks from when creating a user. */
export const ADMIN_ROLES = ["user", "admin"] as const;
/** The password is optional: without one the user signs in another way (reset link, social). */
export const createUserForm = (min: number, max: number) =>
  createUserBody.pick({ email: true, name: true }).extend({
    email,
    name: z.string().trim().min(1, "validation.nameRequired"),
    password: z.union([passwordRule(min, max), z.literal("")]),
    role: z.enum(ADMIN_ROLES),
  });
/** update-user's data for an admin: the same rules as the user's own profile, plus email and its flag. */
export const adminProfileForm = profileForm.pick({ name: true, image: true }).extend({
  email,
  emailVerified: z.boolean(),
});
export const userSearchForm = listUsersQuery.pick({ searchValue: true, searchField: true }).extend({
  searchValue: z.string().trim().max(200, "validation.maxLength"),
});

/** A field's message: a catalogue key, with the values it names (`{min}`, `{max}`). */
export interface FieldMessage {
  key: MessageKey;
  vars?: MessageVars;
}
export type FieldErrors = Partial<Record<string, FieldMessage>>;

/** A zod issue as a catalogue message; messages that are not keys (the contract's own) say "not valid". */
function fieldMessage(issue: z.core.$ZodIssue): FieldMessage {
  const key = isMessageKey(issue.message) ? issue.message : "validation.invalid";
  const vars: MessageVars =
    "minimum" in issue ? { min: Number(issue.minimum) } : "maximum" in issue ? { max: Number(issue.maximum) } : {};
  return { key, vars };
}

/** Parses form values; on failure gives the first message per field. */
export function validate<T>(
  schema: z.ZodType<T>,
  values: unknown,
): { ok: true; value: T } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, value: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= fieldMessage(issue);
  }
  return { ok: false, errors };
}
