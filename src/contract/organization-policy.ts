import { z } from "zod";

/**
 * How a session was signed in, as organization policy names it (docs/organization-policy.md). A
 * sign-in link, including the one that verifies an address and signs in, is `magic-link`; Google One
 * Tap is `social`; an admin's impersonation session is `impersonation` (never allowed by a list).
 */
export const SIGN_IN_METHODS = [
  "password",
  "passkey",
  "magic-link",
  "email-otp",
  "social",
  "sso",
  "anonymous",
] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number] | "impersonation";

/** Seconds; a day is 86400. */
const seconds = (min: number, max: number) => z.number().int().min(min).max(max);
const MAX_BREAK_GLASS = 5;

/** The rules an organization's owners set (stored whole as JSON; absent fields are off). */
export const policyRules = z.object({
  requireTwoFactor: z.boolean(),
  requireSSO: z.boolean(),
  /** Owners who may still sign in with a password and a second factor while SSO is required. */
  breakGlassUserIds: z.array(z.string().min(1).max(255)).max(MAX_BREAK_GLASS),
  /** A session older than this (since sign-in) cannot act in the organization. */
  maxSessionAge: seconds(60, 400 * 86400).nullable(),
  /** A session that has not acted in the organization for this long cannot act in it. */
  idleTimeout: seconds(60, 30 * 86400).nullable(),
  /** Null: every method. */
  allowedSignInMethods: z.array(z.enum(SIGN_IN_METHODS)).min(1).max(SIGN_IN_METHODS.length).nullable(),
});
export type PolicyRules = z.output<typeof policyRules>;

export const NO_POLICY: PolicyRules = Object.freeze({
  requireTwoFactor: false,
  requireSSO: false,
  breakGlassUserIds: [],
  maxSessionAge: null,
  idleTimeout: null,
  allowedSignInMethods: null,
});

export const getPolicyQuery = z.object({ organizationId: z.string().min(1).optional() });

/** update-policy: the fields sent change, the rest stay. */
export const updatePolicyBody = policyRules
  .partial()
  .extend({ organizationId: z.string().min(1).optional() })
  .strict();

/** The rule a session fails, as its error code names it. */
export const POLICY_REFUSALS = [
  "SSO_REQUIRED",
  "SIGN_IN_METHOD_NOT_ALLOWED_BY_ORGANIZATION",
  "SESSION_TOO_OLD_FOR_ORGANIZATION",
  "SESSION_IDLE_FOR_ORGANIZATION",
  "TWO_FACTOR_REQUIRED_BY_ORGANIZATION",
] as const;
export type PolicyRefusal = (typeof POLICY_REFUSALS)[number];

export const policyModel = policyRules.extend({
  organizationId: z.string(),
  /** Owners see who the break-glass users are; other members an empty list. */
  updatedAt: z.coerce.date().nullable(),
});

/**
 * The policy as it applies to the caller's session (get-active-member's `organizationPolicy`, and
 * get-policy's `caller`): what it requires and what this session still owes, first to fix first.
 */
export const policyStateModel = z.object({
  requireTwoFactor: z.boolean(),
  requireSSO: z.boolean(),
  maxSessionAge: z.number().int().nullable(),
  idleTimeout: z.number().int().nullable(),
  allowedSignInMethods: z.array(z.enum(SIGN_IN_METHODS)).nullable(),
  /** How this session was signed in (null: before this was recorded). */
  signInMethod: z.string().nullable(),
  /** This session signed in through the break-glass path. */
  breakGlass: z.boolean(),
  /** The codes this session would be refused with, in the order they are checked; empty: it may act. */
  unmet: z.array(z.enum(POLICY_REFUSALS)),
  /** When the session stops meeting maxSessionAge, if it does. */
  sessionExpiresAt: z.coerce.date().nullable(),
});
export type PolicyState = z.output<typeof policyStateModel>;

export const policyReply = z.object({ policy: policyModel, caller: policyStateModel });
