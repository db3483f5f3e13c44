import type * as SimpleWebAuthn from "@simplewebauthn/server";
import type { SessionWithUser } from "../../contract/models.js";
import type { Passkey } from "../../contract/passkeys.js";
import type { Locale } from "../../i18n/index.js";
import { auditChange, auditedChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { newId, randomString } from "../crypto/random.js";
import { type FactorChange, factorChangedNotice } from "../email/templates.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/database.js";
import {
  advancePasskeyCounter,
  deletePasskey,
  findPasskeyByCredential,
  insertPasskey,
  listUserPasskeys,
  renamePasskey,
} from "../store/passkeys.js";
import { findUserById } from "../store/users.js";
import { consumeVerification, insertVerification } from "../store/verifications.js";
import { retireAnonymousUser } from "./anonymous.js";
import { createSession, type RequestMeta } from "./sessions.js";

/**
 * @simplewebauthn/server, loaded at the first passkey ceremony: an instance whose users never touch
 * passkeys does without its ASN.1 and CBOR parsers and their memory (bench/README.md, lazy loads).
 */
let webauthnModule: Promise<typeof SimpleWebAuthn> | undefined;
const webauthn = () => {
  webauthnModule ??= import("@simplewebauthn/server");
  return webauthnModule;
};

/** A WebAuthn ceremony must finish within this many seconds of its options. */
export const CHALLENGE_SECONDS = 300;

type Ceremony = { type: "registration" | "authentication"; challenge: string; userId: string | null };
const challengeIdentifier = (token: string) => `passkey-challenge:${sha256Base64Url(token)}`;

function relyingParty(ctx: AuthContext) {
  const { rpID, rpName, origin } = ctx.options.passkey;
  const base = new URL(ctx.baseURL);
  return { rpID: rpID ?? base.hostname, rpName: rpName ?? ctx.options.appName, origin: origin ?? base.origin };
}

/** The challenge lives server-side, single use, keyed by a token the browser holds in a signed cookie. */
async function storeCeremony(ctx: AuthContext, ceremony: Ceremony): Promise<string> {
  const token = randomString(32);
  const now = ctx.now();
  await insertVerification(ctx.db, {
    id: newId(),
    identifier: challengeIdentifier(token),
    value: JSON.stringify(ceremony),
    expiresAt: new Date(now.getTime() + CHALLENGE_SECONDS * 1000),
    now,
  });
  return token;
}

async function takeCeremony(ctx: AuthContext, token: string | null, type: Ceremony["type"]): Promise<Ceremony> {
  const found = token ? await consumeVerification(ctx.db, challengeIdentifier(token)) : null;
  if (!found || found.expiresAt.getTime() <= ctx.now().getTime()) throw new AuthError("CHALLENGE_NOT_FOUND");
  const ceremony = JSON.parse(found.value) as Ceremony;
  if (ceremony.type !== type) throw new AuthError("CHALLENGE_NOT_FOUND");
  return ceremony;
}

/** Runs a WebAuthn check: a malformed or forged response is the refusal, never a 500 (the detail is logged). */
async function verified<T>(
  ctx: AuthContext,
  refusal: "FAILED_TO_VERIFY_REGISTRATION" | "AUTHENTICATION_FAILED",
  check: () => Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    ctx.logger.warn("passkey response refused", { refusal, error: String(error) });
    throw new AuthError(refusal);
  }
}

/** GET /passkey/generate-register-options: excludes the caller's existing passkeys. */
export async function registrationOptions(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { authenticatorAttachment?: "platform" | "cross-platform"; name?: string },
) {
  const { rpID, rpName } = relyingParty(ctx);
  const existing = await listUserPasskeys(ctx.db, caller.user.id);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID,
    userName: input.name || caller.user.email,
    userDisplayName: caller.user.name,
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialID,
      transports: passkey.transports ? (passkey.transports.split(",") as AuthenticatorTransport[]) : undefined,
    })),
    authenticatorSelection: {
      residentKey: "preferred",
      userVerification: "preferred",
      ...(input.authenticatorAttachment ? { authenticatorAttachment: input.authenticatorAttachment } : {}),
    },
  });
  const token = await storeCeremony(ctx, {
    type: "registration",
    challenge: options.challenge,
    userId: caller.user.id,
  });
  return { options, token };
}

/** POST /passkey/verify-registration: the attestation checked against the stored challenge, then kept. */
export async function registerPasskey(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { response: unknown; name?: string },
  challengeToken: string | null,
  locale: Locale,
): Promise<Passkey> {
  const ceremony = await takeCeremony(ctx, challengeToken, "registration");
  if (ceremony.userId !== caller.user.id) throw new AuthError("CHALLENGE_NOT_FOUND");
  const { rpID, origin } = relyingParty(ctx);
  const { verifyRegistrationResponse } = await webauthn();
  const verification = await verified(ctx, "FAILED_TO_VERIFY_REGISTRATION", () =>
    verifyRegistrationResponse({
      response: input.response as Parameters<typeof verifyRegistrationResponse>[0]["response"],
      expectedChallenge: ceremony.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }),
  );
  if (!verification.verified) throw new AuthError("FAILED_TO_VERIFY_REGISTRATION");
  const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;
  if (await findPasskeyByCredential(ctx.db, credential.id)) throw new AuthError("PREVIOUSLY_REGISTERED");
  const passkey: Passkey = {
    id: newId(),
    name: input.name || null,
    userId: caller.user.id,
    credentialID: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    transports: credential.transports?.join(",") ?? null,
    aaguid,
    createdAt: ctx.now(),
  };
  await withNotice(ctx, caller.user.email, "passkeyAdded", locale, async (trx) => {
    await insertPasskey(trx, passkey);
    return true;
  });
  return passkey;
}

/** A passkey change (`write` says whether one happened) and the mail that tells the user, committed together. */
async function withNotice(
  ctx: AuthContext,
  email: string,
  change: FactorChange,
  locale: Locale,
  write: (trx: DB) => Promise<boolean>,
): Promise<boolean> {
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const done = await write(trx);
    if (done) {
      await ctx.mail.enqueue(trx, factorChangedNotice(locale, email, change));
      await auditChange(ctx, trx);
    }
    return done;
  });
  if (changed) ctx.mail.wake();
  return changed;
}

/** GET /passkey/generate-authenticate-options: any passkey of this site (discoverable credentials). */
export async function authenticationOptions(ctx: AuthContext) {
  const { rpID } = relyingParty(ctx);
  const options = await (await webauthn()).generateAuthenticationOptions({ rpID, userVerification: "preferred" });
  const token = await storeCeremony(ctx, { type: "authentication", challenge: options.challenge, userId: null });
  return { options, token };
}

/**
 * POST /passkey/verify-authentication: the assertion checked against the stored challenge and the
 * passkey's public key; the counter moves forward. A passkey that verified its user (PIN or
 * biometrics: the UV flag) is possession and inherence in one, so it satisfies the second-factor
 * gate. Without UV it is possession only, like a password: a user with two-factor on still owes the
 * second factor (TwoFactorRequired).
 */
export async function signInWithPasskey(
  ctx: AuthContext,
  input: { response: { id: string } },
  challengeToken: string | null,
  meta: RequestMeta,
  guest: SessionWithUser | null,
): Promise<SessionWithUser> {
  const ceremony = await takeCeremony(ctx, challengeToken, "authentication");
  const passkey = await findPasskeyByCredential(ctx.db, input.response.id);
  if (!passkey) throw new AuthError("PASSKEY_NOT_FOUND", { status: 401 });
  const { rpID, origin } = relyingParty(ctx);
  const { verifyAuthenticationResponse } = await webauthn();
  const verification = await verified(ctx, "AUTHENTICATION_FAILED", () =>
    verifyAuthenticationResponse({
      response: input.response as Parameters<typeof verifyAuthenticationResponse>[0]["response"],
      expectedChallenge: ceremony.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialID,
        publicKey: Buffer.from(passkey.publicKey, "base64url"),
        counter: passkey.counter,
      },
      requireUserVerification: false,
    }),
  );
  if (!verification.verified) throw new AuthError("AUTHENTICATION_FAILED");
  await advancePasskeyCounter(ctx.db, passkey.id, verification.authenticationInfo.newCounter);
  const user = await findUserById(ctx.db, passkey.userId);
  if (!user) throw new AuthError("PASSKEY_NOT_FOUND", { status: 401 });
  const session = await createSession(ctx, ctx.db, user.id, meta, {
    rememberMe: true,
    knownUser: user,
    secondFactor: verification.authenticationInfo.userVerified ? "passkey" : undefined,
    signInMethod: "passkey",
  });
  const data = { session, user };
  await retireAnonymousUser(ctx, guest, data);
  return data;
}

export const listPasskeys = (ctx: AuthContext, userId: string) => listUserPasskeys(ctx.db, userId);

export async function renameUserPasskey(ctx: AuthContext, userId: string, id: string, name: string): Promise<Passkey> {
  return auditedChange(
    ctx,
    async (db) => {
      const passkey = await renamePasskey(db, userId, id, name);
      if (!passkey) throw new AuthError("PASSKEY_NOT_FOUND");
      return passkey;
    },
    { details: { passkeyId: id } },
  );
}

export async function deleteUserPasskey(
  ctx: AuthContext,
  user: Pick<SessionWithUser["user"], "id" | "email">,
  id: string,
  locale: Locale,
): Promise<void> {
  const deleted = await withNotice(ctx, user.email, "passkeyRemoved", locale, (trx) => deletePasskey(trx, user.id, id));
  if (!deleted) throw new AuthError("PASSKEY_NOT_FOUND");
}
