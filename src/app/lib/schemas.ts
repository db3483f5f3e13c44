import { z } from "zod";
import { signInEmailBody, signUpEmailBody, updateUserBody } from "../../contract/account.js";
import {
  changeEmailBody,
  changePasswordBody,
  requestPasswordResetBody,
  resetPasswordBody,
} from "../../contract/account-flows.js";
import { banUserBody, createUserBody, listUsersQuery, setUserPasswordBody } from "../../contract/admin.js";

/**
 * Form validation with the server's own request schemas (src/contract), tightened where the
 * server checks in its service (email format, password length from the configuration).
 */
const email = z.email("Enter a valid email address.");
export const passwordRule = (min: number, max: number) =>
  z.string().min(min, `Use at least ${min} characters.`).max(max, `Use at most ${max} characters.`);

export const signUpForm = (min: number, max: number) =>
  signUpEmailBody.extend({
    name: z.string().trim().min(1, "Enter your name."),
    email,
    password: passwordRule(min, max),
  });
export const signInForm = signInEmailBody.extend({ email, password: z.string().min(1, "Enter your password.") });
export const profileForm = updateUserBody.extend({
  name: z.string().trim().min(1, "Enter your name."),
  image: z.union([z.url("Enter an image URL (https://...)."), z.literal("")]).optional(),
});
export const emailForm = requestPasswordResetBody.pick({ email: true }).extend({ email });
export const changeEmailForm = changeEmailBody.pick({ newEmail: true }).extend({ newEmail: email });
export const SAME_PASSWORD_MESSAGE = "Choose a new password that differs from the current one.";
export const changePasswordForm = (min: number, max: number) =>
  changePasswordBody
    .extend({
      currentPassword: z.string().min(1, "Enter your current password."),
      newPassword: passwordRule(min, max),
    })
    // The server refuses it too (NEW_PASSWORD_SAME_AS_CURRENT); saying so here saves the round trip.
    .refine((v) => v.newPassword !== v.currentPassword, { message: SAME_PASSWORD_MESSAGE, path: ["newPassword"] });
export const resetPasswordForm = (min: number, max: number) =>
  resetPasswordBody.pick({ newPassword: true }).extend({ newPassword: passwordRule(min, max) });
export const slugRule = z
  .string()
  .min(1, "Enter a slug.")
  .max(48, "Use at most 48 characters.")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes.");
export const organizationForm = z.object({ name: z.string().trim().min(1, "Enter a name."), slug: slugRule });
export const organizationSettingsForm = organizationForm.extend({
  logo: z.union([z.url("Enter an image URL (https://...)."), z.literal("")]).optional(),
  metadata: z.string().refine((text) => {
    if (text.trim() === "") return true;
    try {
      const value = JSON.parse(text);
      return typeof value === "object" && value !== null && !Array.isArray(value);
    } catch {
      return false;
    }
  }, 'Enter a JSON object, e.g. {"plan": "pro"}.'),
});
export const inviteForm = z.object({
  email,
  role: z.enum(["member", "admin", "owner"]),
  teamId: z.string().optional(),
});
export const teamForm = z.object({ name: z.string().trim().min(1, "Enter a team name.") });

/** Ban lengths an admin picks from, in seconds ("" = until unbanned). */
export const BAN_DURATIONS = [
  { value: "", label: "Until unbanned" },
  { value: "3600", label: "1 hour" },
  { value: "86400", label: "1 day" },
  { value: "604800", label: "7 days" },
  { value: "2592000", label: "30 days" },
] as const;
export const banForm = banUserBody.pick({ banReason: true }).extend({
  banReason: z.string().trim().max(500, "Use at most 500 characters."),
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
    name: z.string().trim().min(1, "Enter a name."),
    password: z.union([passwordRule(min, max), z.literal("")]),
    role: z.enum(ADMIN_ROLES),
  });
/** update-user's data for an admin: the same rules as the user's own profile, plus email and its flag. */
export const adminProfileForm = profileForm.pick({ name: true, image: true }).extend({
  email,
  emailVerified: z.boolean(),
});
export const userSearchForm = listUsersQuery.pick({ searchValue: true, searchField: true }).extend({
  searchValue: z.string().trim().max(200, "Use at most 200 characters."),
});

export type FieldErrors = Partial<Record<string, string>>;

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
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** "Acme Inc." -> "acme-inc" */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}
