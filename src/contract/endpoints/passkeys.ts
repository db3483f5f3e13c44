import { z } from "zod";
import { sessionModel, userModel } from "../models.js";
import * as passkeys from "../passkeys.js";
import { twoFactorRedirectReply } from "../two-factor.js";
import { endpoint } from "./define.js";
import { statusReply } from "./replies.js";

const SIGNED_IN = { session: "required", feature: "passkey" } as const;

/** Passkeys: register, sign in (they count as both factors), list, rename, delete. */
export const passkeyEndpoints = {
  generateRegisterOptions: endpoint({
    method: "GET",
    path: "/passkey/generate-register-options",
    summary: "WebAuthn creation options for a new passkey of the caller",
    query: passkeys.registerOptionsQuery,
    reply: passkeys.webAuthnOptionsReply,
    policy: { ...SIGNED_IN, credentials: "enrol" },
  }),
  verifyRegistration: endpoint({
    method: "POST",
    path: "/passkey/verify-registration",
    summary: "Store the passkey the browser just created",
    body: passkeys.verifyRegistrationBody,
    reply: passkeys.passkeyModel,
    errors: ["CHALLENGE_NOT_FOUND", "FAILED_TO_VERIFY_REGISTRATION", "PREVIOUSLY_REGISTERED"],
    audit: { action: "user.passkey_added" },
    policy: { ...SIGNED_IN, credentials: "enrol", rateLimit: "credential" },
  }),
  generateAuthenticateOptions: endpoint({
    method: "GET",
    path: "/passkey/generate-authenticate-options",
    summary: "WebAuthn request options to sign in with a passkey (discoverable credentials)",
    reply: passkeys.webAuthnOptionsReply,
    policy: { feature: "passkey" },
  }),
  verifyAuthentication: endpoint({
    method: "POST",
    path: "/passkey/verify-authentication",
    summary:
      "Sign in with the passkey assertion the browser just made (without user verification, a user with two-factor on gets the second-factor step)",
    body: passkeys.verifyAuthenticationBody,
    reply: z.union([z.object({ session: sessionModel, user: userModel }), twoFactorRedirectReply]),
    errors: ["CHALLENGE_NOT_FOUND", "PASSKEY_NOT_FOUND", "AUTHENTICATION_FAILED", "BANNED_USER"],
    audit: { action: "user.sign_in", details: { method: "passkey" } },
    policy: { feature: "passkey", origin: "login", rateLimit: "credential", refreshes: ["session", "organizations"] },
  }),
  listPasskeys: endpoint({
    method: "GET",
    path: "/passkey/list-user-passkeys",
    summary: "The caller's passkeys",
    reply: z.array(passkeys.passkeyModel),
    policy: SIGNED_IN,
  }),
  updatePasskey: endpoint({
    method: "POST",
    path: "/passkey/update-passkey",
    summary: "Rename one of the caller's passkeys",
    body: passkeys.updatePasskeyBody,
    reply: z.object({ passkey: passkeys.passkeyModel }),
    errors: ["PASSKEY_NOT_FOUND"],
    audit: { action: "user.passkey_renamed" },
    policy: { ...SIGNED_IN, credentials: "manage" },
  }),
  deletePasskey: endpoint({
    method: "POST",
    path: "/passkey/delete-passkey",
    summary: "Delete one of the caller's passkeys",
    body: passkeys.passkeyIdBody,
    reply: statusReply,
    errors: ["PASSKEY_NOT_FOUND", "SESSION_NOT_FRESH"],
    audit: { action: "user.passkey_removed" },
    policy: { ...SIGNED_IN, session: "fresh", credentials: "manage" },
  }),
} as const;
