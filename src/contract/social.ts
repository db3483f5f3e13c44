import { z } from "zod";

/**
 * Request bodies and queries of social sign-in, account linking, provider tokens, anonymous sign-in
 * and one-tap (WIRE sections 5-7). Unknown keys are ignored, as elsewhere.
 */

/** Parameters the server sets itself; a client may not override them through additionalParams. */
const RESERVED_AUTHORIZATION_PARAMS = [
  "state",
  "client_id",
  "redirect_uri",
  "response_type",
  "code_challenge",
  "code_challenge_method",
  "nonce",
  "scope",
];

export const idTokenInput = z.object({
  token: z.string().min(1),
  nonce: z.string().optional(),
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  /** Access-token expiry, ms since epoch. */
  expiresAt: z.number().optional(),
});
export type IdTokenInput = z.infer<typeof idTokenInput>;

export const signInSocialBody = z.object({
  provider: z.string().min(1),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  disableRedirect: z.boolean().optional(),
  idToken: idTokenInput.optional(),
  scopes: z.array(z.string().min(1)).optional(),
  requestSignUp: z.boolean().optional(),
  loginHint: z.string().optional(),
  additionalParams: z
    .record(z.string(), z.string())
    .refine((p) => !Object.keys(p).some((k) => RESERVED_AUTHORIZATION_PARAMS.includes(k)), {
      message: `must not set ${RESERVED_AUTHORIZATION_PARAMS.join(", ")}`,
    })
    .optional(),
});
export type SignInSocialBody = z.infer<typeof signInSocialBody>;

export const linkSocialBody = z.object({
  provider: z.string().min(1),
  callbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  scopes: z.array(z.string().min(1)).optional(),
  disableRedirect: z.boolean().optional(),
  loginHint: z.string().optional(),
  idToken: idTokenInput.optional(),
});
export type LinkSocialBody = z.infer<typeof linkSocialBody>;

/** What a provider sends back to /callback/:id (query on GET, form or JSON on POST). */
export const callbackParams = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  iss: z.string().optional(),
  device_id: z.string().optional(),
  user: z.string().optional(),
});
export type CallbackParams = z.infer<typeof callbackParams>;

/**
 * Names one of the caller's accounts: `accountId` is the row id (WIRE) or the provider's account id
 * (SPEC), either way, narrowed by `providerId` when given. `userId` is accepted but never widens access.
 */
export const accountSelector = z.object({
  accountId: z.string().min(1).optional(),
  providerId: z.string().min(1).optional(),
  userId: z.string().optional(),
});
export type AccountSelector = z.infer<typeof accountSelector>;

export const oneTapBody = z.object({
  idToken: z.string().min(1),
  callbackURL: z.string().optional(),
});
