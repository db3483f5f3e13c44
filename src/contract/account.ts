import { z } from "zod";
import { imageUrl, userName } from "./fields.js";

/**
 * Request bodies and queries of the account and session routes (WIRE section 5).
 * Unknown keys are ignored, as the reference server does; emails are checked in the service so the
 * answer carries the catalogue's INVALID_EMAIL code.
 */
const optionalUrl = z.string().optional();

export const signUpEmailBody = z.object({
  name: userName,
  email: z.string(),
  password: z.string().min(1),
  image: imageUrl.nullish(),
  callbackURL: optionalUrl,
  rememberMe: z.boolean().optional(),
});
export type SignUpEmailBody = z.infer<typeof signUpEmailBody>;

export const signInEmailBody = z.object({
  email: z.string(),
  password: z.string(),
  callbackURL: optionalUrl,
  rememberMe: z.boolean().optional(),
  /**
   * The OAuth provider's signed request the login page was handed: the answer then also says where
   * the browser goes next (`redirect: true, url`; docs/oauth-provider.md).
   */
  oauth_query: z.string().max(8000).optional(),
});
export type SignInEmailBody = z.infer<typeof signInEmailBody>;

/** GET query booleans: any non-empty value counts as true (WIRE 1.2), so `?disableRefresh=1` works. */
const queryFlag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && v !== "");

export const getSessionQuery = z.object({
  disableCookieCache: queryFlag,
  disableRefresh: queryFlag,
});

export const signOutBody = z.object({
  callbackURL: optionalUrl,
  disableRedirect: z.boolean().optional(),
});

export const updateUserBody = z.looseObject({
  name: userName.min(1).optional(),
  image: imageUrl.nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

/** Additional session fields (WIRE: input:true only); anything may arrive, the service decides. */
export const updateSessionBody = z.looseObject({});
export type UpdateSessionBody = z.infer<typeof updateSessionBody>;

export const revokeSessionBody = z.object({ token: z.string().min(1) });
export const emptyBody = z.object({});
