import { z } from "zod";
import { linkedAccountModel } from "../api-models.js";
import { userModel } from "../models.js";
import { accountSelector, callbackParams, linkSocialBody, oneTapBody, signInSocialBody } from "../social.js";
import { twoFactorRedirectReply } from "../two-factor.js";
import { endpoint } from "./define.js";
import { redirectReply, statusReply, successReply, tokenAndUserReply } from "./replies.js";

const PROVIDER_ERRORS = ["PROVIDER_NOT_FOUND", "ID_TOKEN_NOT_SUPPORTED", "INVALID_ID_TOKEN"] as const;
/** The provider's profile of the user, its raw answer, and which account it came from. */
const accountInfoReply = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    image: z.string().nullable(),
    emailVerified: z.boolean(),
  }),
  data: z.record(z.string(), z.unknown()),
  account: z.object({ id: z.string(), providerId: z.string(), accountId: z.string() }),
});
const TOKEN_ERRORS = ["ACCOUNT_NOT_FOUND", "USER_ID_OR_SESSION_REQUIRED", "FAILED_TO_GET_ACCESS_TOKEN"] as const;

/** Social sign-in, linked accounts, anonymous sign-in and Google One Tap (WIRE 6, 7). */
export const socialEndpoints = {
  signInSocial: endpoint({
    method: "POST",
    path: "/sign-in/social",
    summary: "Start a provider sign-in (or sign in with a provider's ID token)",
    body: signInSocialBody,
    reply: z.union([
      redirectReply,
      z.object({ redirect: z.literal(false), token: z.string(), user: userModel }),
      twoFactorRedirectReply,
    ]),
    errors: [...PROVIDER_ERRORS, "BANNED_USER"],
    policy: { origin: "login", rateLimit: "credential", refreshes: ["organizations"] },
  }),
  callbackFormPost: endpoint({
    method: "POST",
    path: "/callback/:id",
    summary: "A provider's form_post callback: redirects to the GET callback with the same parameters",
    body: callbackParams,
    reply: null,
    answers: "redirect",
    audit: { action: "user.sign_in", details: { method: "social" }, whenChanged: true },
    policy: { form: true, origin: "provider" },
  }),
  callback: endpoint({
    method: "GET",
    path: "/callback/:id",
    summary: "A provider's redirect back: signs in or links, then redirects to the app",
    reply: null,
    answers: "redirect",
    audit: { action: "user.sign_in", details: { method: "social" }, whenChanged: true },
    policy: {},
  }),
  linkSocial: endpoint({
    method: "POST",
    path: "/link-social",
    summary: "Link a provider account to the caller",
    body: linkSocialBody,
    reply: redirectReply.extend({ status: z.boolean().optional() }),
    errors: [...PROVIDER_ERRORS, "SOCIAL_ACCOUNT_ALREADY_LINKED", "LINKING_NOT_ALLOWED"],
    policy: { session: "required", credentials: "manage" },
  }),
  listAccounts: endpoint({
    method: "GET",
    path: "/list-accounts",
    summary: "The caller's sign-in methods",
    reply: z.array(linkedAccountModel),
    policy: { session: "required" },
  }),
  unlinkAccount: endpoint({
    method: "POST",
    path: "/unlink-account",
    summary: "Remove one of the caller's sign-in methods",
    body: accountSelector,
    reply: statusReply,
    errors: ["ACCOUNT_NOT_FOUND", "FAILED_TO_UNLINK_LAST_ACCOUNT", "SESSION_NOT_FRESH"],
    audit: { action: "user.social_unlinked" },
    policy: { session: "fresh", credentials: "manage" },
  }),
  getAccessToken: endpoint({
    method: "POST",
    path: "/get-access-token",
    summary: "A valid provider access token for one of the caller's accounts",
    body: accountSelector,
    reply: z.object({
      accessToken: z.string(),
      accessTokenExpiresAt: z.date().nullable(),
      scopes: z.array(z.string()),
      idToken: z.string().nullable(),
    }),
    errors: TOKEN_ERRORS,
    policy: {},
  }),
  refreshToken: endpoint({
    method: "POST",
    path: "/refresh-token",
    summary: "New provider tokens for one of the caller's accounts",
    body: accountSelector,
    reply: z.object({
      accessToken: z.string().nullable(),
      refreshToken: z.string().nullable(),
      accessTokenExpiresAt: z.date().nullable(),
      refreshTokenExpiresAt: z.date().nullable(),
      scope: z.string(),
      idToken: z.string().nullable(),
      providerId: z.string(),
      accountId: z.string(),
    }),
    errors: [...TOKEN_ERRORS, "REFRESH_TOKEN_NOT_FOUND", "FAILED_TO_REFRESH_ACCESS_TOKEN"],
    policy: {},
  }),
  accountInfoPost: endpoint({
    method: "POST",
    path: "/account-info",
    summary: "The provider's current profile of one of the caller's accounts",
    body: accountSelector,
    reply: accountInfoReply,
    errors: [...TOKEN_ERRORS, "FAILED_TO_GET_USER_INFO"],
    policy: {},
  }),
  accountInfo: endpoint({
    method: "GET",
    path: "/account-info",
    summary: "The provider's current profile of one of the caller's accounts",
    query: accountSelector,
    reply: accountInfoReply,
    errors: [...TOKEN_ERRORS, "FAILED_TO_GET_USER_INFO"],
    policy: {},
  }),
  signInAnonymous: endpoint({
    method: "POST",
    path: "/sign-in/anonymous",
    summary: "Sign in as a guest",
    reply: tokenAndUserReply,
    errors: ["ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY"],
    audit: { action: "user.sign_in", details: { method: "anonymous" } },
    policy: { origin: "login", rateLimit: "credential", feature: "anonymous", refreshes: ["session", "organizations"] },
  }),
  deleteAnonymousUser: endpoint({
    method: "POST",
    path: "/delete-anonymous-user",
    summary: "Delete the caller's guest account",
    reply: successReply,
    errors: ["USER_IS_NOT_ANONYMOUS", "DELETE_ANONYMOUS_USER_DISABLED", "USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION"],
    audit: { action: "user.deleted" },
    policy: { session: "required", feature: "anonymous", refreshes: ["session"] },
  }),
  oneTapCallback: endpoint({
    method: "POST",
    path: "/one-tap/callback",
    summary: "Sign in with a Google One Tap credential",
    body: oneTapBody,
    reply: z.union([tokenAndUserReply, twoFactorRedirectReply]),
    errors: ["INVALID_ID_TOKEN", "EMAIL_NOT_AVAILABLE_IN_TOKEN", "BANNED_USER"],
    audit: { action: "user.sign_in", details: { method: "one-tap" } },
    policy: { origin: "login", feature: "oneTap", refreshes: ["session"] },
  }),
} as const;
