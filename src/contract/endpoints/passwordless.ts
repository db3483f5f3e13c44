import { z } from "zod";
import { sessionModel, userModel } from "../models.js";
import * as passwordless from "../passwordless.js";
import { magicLinkVerifyQuery, signInMagicLinkBody } from "../passwordless.js";
import { twoFactorRedirectReply } from "../two-factor.js";
import { endpoint } from "./define.js";
import { credentialsRemovedField, statusReply, successReply, tokenAndUserReply } from "./replies.js";

const OTP = { feature: "emailOTP" } as const;
const CODE_ERRORS = ["INVALID_EMAIL", "INVALID_OTP", "OTP_EXPIRED", "TOO_MANY_ATTEMPTS"] as const;

/** Sign-in by a link or a code sent by mail (better-auth's magic-link and email-otp wire). */
export const passwordlessEndpoints = {
  signInMagicLink: endpoint({
    method: "POST",
    path: "/sign-in/magic-link",
    summary: "Mail a single-use sign-in link (the same answer whether or not the address has an account)",
    body: signInMagicLinkBody,
    reply: statusReply,
    errors: ["INVALID_EMAIL"],
    policy: { origin: "login", rateLimit: "mail", feature: "magicLink" },
  }),
  verifyMagicLink: endpoint({
    method: "GET",
    path: "/magic-link/verify",
    summary:
      "Use a sign-in link: redirects to callbackURL signed in (or answers JSON without one); credentialsRemoved=true when an unproven account lost its credentials",
    query: magicLinkVerifyQuery,
    reply: z.union([
      z.object({ token: z.string(), user: userModel, session: sessionModel, ...credentialsRemovedField }),
      twoFactorRedirectReply,
    ]),
    answers: "json-or-redirect",
    errors: ["INVALID_TOKEN", "BANNED_USER"],
    audit: { action: "user.sign_in", details: { method: "magic-link" }, whenChanged: true },
    policy: { rateLimit: "credential", feature: "magicLink", refreshes: ["session", "organizations"] },
  }),
  confirmMagicLink: endpoint({
    method: "POST",
    path: "/magic-link/verify",
    summary: "Use a sign-in link from the app's confirmation page (a form post; the GET only signs in a fetch)",
    body: magicLinkVerifyQuery,
    reply: z.union([z.object({ token: z.string(), user: userModel, session: sessionModel }), twoFactorRedirectReply]),
    answers: "json-or-redirect",
    errors: ["INVALID_TOKEN", "BANNED_USER"],
    audit: { action: "user.sign_in", details: { method: "magic-link" } },
    policy: {
      form: true,
      origin: "login",
      rateLimit: "credential",
      feature: "magicLink",
      refreshes: ["session", "organizations"],
    },
  }),
  sendVerificationOtp: endpoint({
    method: "POST",
    path: "/email-otp/send-verification-otp",
    summary: "Mail a code to sign in, verify the address or reset the password (same answer for unknown addresses)",
    body: passwordless.sendVerificationOtpBody,
    reply: successReply,
    errors: ["INVALID_EMAIL"],
    policy: { ...OTP, rateLimit: "mail" },
  }),
  checkVerificationOtp: endpoint({
    method: "POST",
    path: "/email-otp/check-verification-otp",
    summary: "Whether a mailed code is right, without using it up (each wrong guess counts)",
    body: passwordless.checkVerificationOtpBody,
    reply: successReply,
    errors: CODE_ERRORS,
    policy: { ...OTP, rateLimit: "credential" },
  }),
  signInEmailOtp: endpoint({
    method: "POST",
    path: "/sign-in/email-otp",
    summary: "Sign in (or up) with a mailed code",
    body: passwordless.signInEmailOtpBody,
    reply: z.union([
      tokenAndUserReply.extend({ token: z.string(), ...credentialsRemovedField }),
      twoFactorRedirectReply,
    ]),
    errors: [...CODE_ERRORS, "BANNED_USER"],
    audit: { action: "user.sign_in", details: { method: "email-otp" } },
    policy: { ...OTP, origin: "login", rateLimit: "credential", refreshes: ["session", "organizations"] },
  }),
  verifyEmailOtp: endpoint({
    method: "POST",
    path: "/email-otp/verify-email",
    summary: "Verify the address with a mailed code (and sign in, with autoSignInAfterVerification)",
    body: passwordless.verifyEmailOtpBody,
    reply: z.union([statusReply.extend({ token: z.string().nullable(), user: userModel }), twoFactorRedirectReply]),
    errors: [...CODE_ERRORS, "USER_NOT_FOUND"],
    audit: { action: "user.email_verified", details: { method: "email-otp" } },
    policy: { ...OTP, rateLimit: "credential", refreshes: ["session"] },
  }),
  forgetPasswordEmailOtp: endpoint({
    method: "POST",
    path: "/forget-password/email-otp",
    summary: "Mail a code to reset the password (same answer for unknown addresses)",
    body: passwordless.forgetPasswordEmailOtpBody,
    reply: successReply,
    errors: ["INVALID_EMAIL"],
    audit: { action: "user.password_reset_requested", details: { method: "email-otp" } },
    policy: { ...OTP, rateLimit: "mail" },
  }),
  resetPasswordEmailOtp: endpoint({
    method: "POST",
    path: "/email-otp/reset-password",
    summary: "Set a new password with a mailed code",
    body: passwordless.resetPasswordEmailOtpBody,
    reply: successReply.extend(credentialsRemovedField),
    errors: [...CODE_ERRORS, "PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG", "PASSWORD_TOO_COMMON"],
    audit: { action: "user.password_reset", details: { method: "email-otp" } },
    policy: { ...OTP, rateLimit: "credential" },
  }),
} as const;
