import { z } from "zod";
import { userName } from "./fields.js";

/** Bodies and queries of the passwordless sign-ins (better-auth's magic-link plugin wire). */
const optionalUrl = z.string().optional();

export const signInMagicLinkBody = z.object({
  email: z.string(),
  /** The new user's name, when the link signs someone up. */
  name: userName.optional(),
  callbackURL: optionalUrl,
  newUserCallbackURL: optionalUrl,
  errorCallbackURL: optionalUrl,
  /** Accepted for better-auth clients (it reaches their sendMagicLink); not used here. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const magicLinkVerifyQuery = z.object({
  token: z.string().min(1).max(256),
  callbackURL: optionalUrl,
  newUserCallbackURL: optionalUrl,
  errorCallbackURL: optionalUrl,
});
