import { createRequire } from "node:module";
import type * as OtpAuth from "otpauth";
import type { SessionWithUser, User } from "../../contract/models.js";
import type { SignInMethod } from "../../contract/organization-policy.js";
import type { TwoFactorRedirectReply } from "../../contract/two-factor.js";
import type { Locale } from "../../i18n/index.js";
import { auditChange, auditedChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { safeEqual, sha256Base64Url } from "../crypto/digest.js";
import { DIGITS, randomString } from "../crypto/random.js";
import { factorChangedNotice, twoFactorCodeMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { claimAttempt, findAttempts } from "../store/attempt-counters.js";
import type { DB } from "../store/database.js";
import type { ProofMethod } from "../store/session-proofs.js";
import {
  advanceTotpStep,
  consumeChallenge,
  deleteTwoFactor,
  findChallenge,
  findTwoFactor,
  insertChallenge,
  replaceBackupCodes,
  saveTwoFactor,
  setChallengeOtp,
  setTwoFactorEnabled,
  spendBackupCode,
  type TwoFactorChallenge,
} from "../store/two-factor.js";
import { findUserById } from "../store/users.js";
import { noteProof } from "./credential-guard.js";
import { createSession, type RequestMeta } from "./sessions.js";
import { beginSecondFactorAttempt } from "./sign-in-throttle.js";
import { forgetTrustedDevices, trustDevice } from "./trusted-devices.js";

/** A sign-in waits this long for its second factor. */
export const CHALLENGE_SECONDS = 600;
/** Wrong codes one challenge takes before the sign-in must start again. */
const CHALLENGE_ATTEMPTS = 5;
const TOTP_DIGITS = 6;
const TOTP_PERIOD = 30;
const OTP_DIGITS = 6;

// Loaded at the first authenticator-app step: an instance whose users never set one up does without
// its memory (bench/README.md, lazy loads).
let otpauth: typeof OtpAuth | undefined;
function otpAuth(): typeof OtpAuth {
  otpauth ??= createRequire(import.meta.url)("otpauth") as typeof OtpAuth;
  return otpauth;
}

function totpFor(ctx: AuthContext, user: Pick<User, "email">, base32: string, issuer?: string): OtpAuth.TOTP {
  const { Secret, TOTP } = otpAuth();
  return new TOTP({
    issuer: issuer ?? ctx.options.twoFactor.issuer ?? new URL(ctx.baseURL).host,
    label: user.email,
    secret: Secret.fromBase32(base32),
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  });
}

/** Backup codes are shown once and stored as SHA-256 digests; comparison ignores case and dashes. */
const normalizeBackupCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();
const hashBackupCode = (code: string) => sha256Base64Url(normalizeBackupCode(code));

function newBackupCodes(ctx: AuthContext): string[] {
  const { amount, length } = ctx.options.twoFactor.backupCodes;
  return Array.from({ length: amount }, () => randomString(length, "abcdefghjkmnpqrstuvwxyz23456789"));
}

// Who may manage two-factor (no impersonation, a verified account, a recent proof of identity: the
// `password` of these bodies or one the session recorded) is the routes' credential guard's rule
// (services/credential-guard.ts), checked before any of these run.

/** POST /two-factor/enable: a new secret and backup codes; two-factor turns on once a code proves the app has it. */
export async function enableTwoFactor(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { issuer?: string },
  locale: Locale,
): Promise<{ totpURI: string; backupCodes: string[]; user: User }> {
  const existing = await findTwoFactor(ctx.db, caller.user.id);
  if (existing?.verified && caller.user.twoFactorEnabled) throw new AuthError("TOTP_ALREADY_ENABLED");
  const secret = new (otpAuth().Secret)({ size: 20 });
  const backupCodes = newBackupCodes(ctx);
  const verified = ctx.options.twoFactor.skipVerificationOnEnable;
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await saveTwoFactor(trx, {
      userId: caller.user.id,
      secret: ctx.totpCipher.encrypt(secret.base32),
      backupCodeHashes: backupCodes.map(hashBackupCode),
      verified,
      now,
    });
    if (verified) await turnTwoFactor(ctx, trx, caller.user, true, locale);
    await auditChange(ctx, trx);
  });
  if (verified) ctx.mail.wake();
  const user = { ...caller.user, twoFactorEnabled: verified || caller.user.twoFactorEnabled };
  return { totpURI: totpFor(ctx, user, secret.base32, input.issuer).toString(), backupCodes, user };
}

/** Two-factor on or off for the user, told by webhook and by mail to the user, in the caller's transaction. */
async function turnTwoFactor(ctx: AuthContext, trx: DB, user: User, on: boolean, locale: Locale): Promise<void> {
  await ctx.webhooks.enqueue(trx, "user.updated", await setTwoFactorEnabled(trx, user.id, on, ctx.now()));
  await ctx.mail.enqueue(trx, factorChangedNotice(locale, user.email, on ? "twoFactorEnabled" : "twoFactorDisabled"));
}

async function requireSecret(ctx: AuthContext, userId: string) {
  const record = await findTwoFactor(ctx.db, userId);
  if (!record) throw new AuthError("TOTP_NOT_ENABLED");
  const base32 = ctx.totpCipher.decrypt(record.secret);
  if (!base32) throw new AuthError("TOTP_NOT_ENABLED");
  return { record, base32 };
}

export async function getTotpUri(ctx: AuthContext, caller: SessionWithUser): Promise<string> {
  const { base32 } = await requireSecret(ctx, caller.user.id);
  return totpFor(ctx, caller.user, base32).toString();
}

/** POST /two-factor/disable: secret, codes and trusted devices go. */
export async function disableTwoFactor(ctx: AuthContext, caller: SessionWithUser, locale: Locale): Promise<User> {
  if (!caller.user.twoFactorEnabled && !(await findTwoFactor(ctx.db, caller.user.id))) {
    throw new AuthError("TWO_FACTOR_NOT_ENABLED");
  }
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTwoFactor(trx, caller.user.id);
    await forgetTrustedDevices(trx, caller.user.id);
    await turnTwoFactor(ctx, trx, caller.user, false, locale);
    await auditChange(ctx, trx);
  });
  ctx.mail.wake();
  return { ...caller.user, twoFactorEnabled: false };
}

export async function regenerateBackupCodes(ctx: AuthContext, caller: SessionWithUser): Promise<string[]> {
  if (!caller.user.twoFactorEnabled) throw new AuthError("TWO_FACTOR_NOT_ENABLED");
  const codes = newBackupCodes(ctx);
  await auditedChange(ctx, async (db) => {
    if (!(await replaceBackupCodes(db, caller.user.id, codes.map(hashBackupCode), ctx.now()))) {
      throw new AuthError("TWO_FACTOR_NOT_ENABLED");
    }
  });
  return codes;
}

/** Which second factors a sign-in may use (better-auth's `twoFactorMethods`). */
export async function twoFactorMethods(ctx: AuthContext, userId: string): Promise<TwoFactorRedirectReply> {
  const record = await findTwoFactor(ctx.db, userId);
  const methods: ("totp" | "otp")[] = record?.verified ? ["totp"] : [];
  if (ctx.options.twoFactor.otp.enabled) methods.push("otp");
  return { twoFactorRedirect: true, twoFactorMethods: methods };
}

/** A sign-in that owes a second factor: a single-use challenge; its token goes to the browser. */
export async function startTwoFactorChallenge(
  ctx: AuthContext,
  userId: string,
  rememberMe: boolean,
  signInMethod: SignInMethod | null = null,
  signInProviderId: string | null = null,
): Promise<{ token: string; reply: TwoFactorRedirectReply }> {
  const token = randomString(32);
  const now = ctx.now();
  await insertChallenge(ctx.db, {
    tokenHash: sha256Base64Url(token),
    userId,
    rememberMe,
    signInMethod,
    signInProviderId,
    expiresAt: new Date(now.getTime() + CHALLENGE_SECONDS * 1000),
    now,
  });
  return { token, reply: await twoFactorMethods(ctx, userId) };
}

/** Who is proving a second factor: a pending sign-in (its challenge), or a signed-in user (set-up). */
export type TwoFactorSubject =
  | { kind: "sign-in"; challenge: TwoFactorChallenge; user: User }
  | { kind: "signed-in"; caller: SessionWithUser };

export async function resolveSubject(
  ctx: AuthContext,
  caller: SessionWithUser | null,
  challengeToken: string | null,
): Promise<TwoFactorSubject> {
  if (caller) return { kind: "signed-in", caller };
  const challenge = challengeToken ? await findChallenge(ctx.db, sha256Base64Url(challengeToken)) : null;
  if (!challenge || challenge.expiresAt.getTime() <= ctx.now().getTime()) {
    throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  }
  const claimed = await findAttempts(ctx.db, challengeKey(challenge), ctx.now());
  if (claimed && claimed.attempts >= CHALLENGE_ATTEMPTS) await endChallengeForTooManyAttempts(ctx, challenge);
  const user = await findUserById(ctx.db, challenge.userId);
  if (!user) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  return { kind: "sign-in", challenge, user };
}

const subjectUser = (subject: TwoFactorSubject) => (subject.kind === "sign-in" ? subject.user : subject.caller.user);

const challengeKey = (challenge: TwoFactorChallenge) => `two-factor-challenge:${challenge.tokenHash}`;

async function endChallengeForTooManyAttempts(ctx: AuthContext, challenge: TwoFactorChallenge): Promise<never> {
  await consumeChallenge(ctx.db, challenge.tokenHash);
  throw new AuthError("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
}

/**
 * Runs one code check for a subject. At sign-in the attempt is claimed first, on the challenge and
 * on the user's own second-factor brake (services/sign-in-throttle.ts), so parallel guesses each
 * need a claim; only a right code clears the brake.
 */
async function checkCode(
  ctx: AuthContext,
  subject: TwoFactorSubject,
  wrong: "INVALID_CODE" | "INVALID_BACKUP_CODE",
  check: () => Promise<boolean>,
): Promise<void> {
  let finishAttempt: ((succeeded: boolean) => Promise<void>) | null = null;
  if (subject.kind === "sign-in") {
    const { challenge } = subject;
    const limit = { limit: CHALLENGE_ATTEMPTS, expiresAt: challenge.expiresAt };
    if ((await claimAttempt(ctx.db, challengeKey(challenge), ctx.now(), limit)) === null) {
      await endChallengeForTooManyAttempts(ctx, challenge);
    }
    finishAttempt = await beginSecondFactorAttempt(ctx, subject.user.id);
  }
  const valid = await check();
  await finishAttempt?.(valid);
  if (!valid) throw new AuthError(wrong);
}

export interface SecondFactorOutcome {
  data: SessionWithUser;
  /** A fresh trust-device token when the user asked to trust this browser. */
  trustedDeviceToken: string | null;
  /** At sign-in, whether the new session is remembered (as the first factor asked); else unchanged. */
  rememberMe: boolean | null;
}

/**
 * A second factor was proven: a sign-in gets its session (the challenge is used up, once); a
 * signed-in user keeps theirs, and a set-up in progress turns two-factor on. `proof` is what the
 * factor proves of the person (a mailed code: only the mailbox, so none).
 */
async function complete(
  ctx: AuthContext,
  subject: TwoFactorSubject,
  meta: RequestMeta,
  trust: boolean,
  proof: ProofMethod | null,
): Promise<SecondFactorOutcome> {
  let data: SessionWithUser;
  if (subject.kind === "signed-in") {
    const { caller } = subject;
    if (!caller.user.twoFactorEnabled) {
      await ctx.db.transaction().execute((trx) => turnTwoFactor(ctx, trx, caller.user, true, meta.locale));
      ctx.mail.wake();
    }
    if (proof) await noteProof(ctx, caller, proof);
    data = { session: caller.session, user: { ...caller.user, twoFactorEnabled: true } };
  } else {
    const { challenge, user } = subject;
    data = await ctx.db.transaction().execute(async (trx) => {
      if (!(await consumeChallenge(trx, challenge.tokenHash))) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
      const session = await createSession(ctx, trx, user.id, meta, {
        rememberMe: challenge.rememberMe,
        knownUser: user,
        secondFactor: "verified",
        proof: proof ?? undefined,
        signInMethod: (challenge.signInMethod as SignInMethod | null) ?? undefined,
        signInProviderId: challenge.signInProviderId ?? undefined,
      });
      return { session, user };
    });
  }
  const trustedDeviceToken = trust ? await trustDevice(ctx, data.user.id) : null;
  return { data, trustedDeviceToken, rememberMe: subject.kind === "sign-in" ? subject.challenge.rememberMe : null };
}

/** POST /two-factor/verify-totp: a code from the app, within one step either side, never twice. */
export async function verifyTotp(
  ctx: AuthContext,
  subject: TwoFactorSubject,
  input: { code: string; trustDevice?: boolean },
  meta: RequestMeta,
): Promise<SecondFactorOutcome> {
  const user = subjectUser(subject);
  const { record, base32 } = await requireSecret(ctx, user.id);
  if (subject.kind === "sign-in" && !record.verified) throw new AuthError("TOTP_NOT_ENABLED");
  const totp = totpFor(ctx, user, base32);
  await checkCode(ctx, subject, "INVALID_CODE", async () => {
    const timestamp = ctx.now().getTime();
    const delta = /^\d+$/.test(input.code) ? totp.validate({ token: input.code, timestamp, window: 1 }) : null;
    if (delta === null) return false;
    return advanceTotpStep(ctx.db, user.id, totp.counter({ timestamp }) + delta, ctx.now());
  });
  return complete(ctx, subject, meta, input.trustDevice === true, "totp");
}

/** POST /two-factor/verify-backup-code: each code works once. */
export async function verifyBackupCode(
  ctx: AuthContext,
  subject: TwoFactorSubject,
  input: { code: string; trustDevice?: boolean },
  meta: RequestMeta,
): Promise<SecondFactorOutcome> {
  const user = subjectUser(subject);
  if (!user.twoFactorEnabled) throw new AuthError("TWO_FACTOR_NOT_ENABLED");
  const record = await findTwoFactor(ctx.db, user.id);
  if (!record) throw new AuthError("TWO_FACTOR_NOT_ENABLED");
  await checkCode(ctx, subject, "INVALID_BACKUP_CODE", async () => {
    const digest = hashBackupCode(input.code);
    // Every stored code is compared, so the time taken says nothing about which one matched.
    const matches = record.backupCodeHashes.map((stored) => safeEqual(stored, digest));
    const index = matches.indexOf(true);
    if (index < 0) return false;
    const remaining = record.backupCodeHashes.filter((_, i) => i !== index);
    return spendBackupCode(ctx.db, user.id, remaining, record.backupCodeHashes);
  });
  return complete(ctx, subject, meta, input.trustDevice === true, "backup-code");
}

/** Mailed codes serve a pending sign-in only, and only while two-factor OTP is on. */
function otpSignIn(ctx: AuthContext, subject: TwoFactorSubject) {
  if (!ctx.options.twoFactor.otp.enabled) throw new AuthError("OTP_NOT_ENABLED");
  if (subject.kind !== "sign-in") throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  return subject;
}

/** POST /two-factor/send-otp: a code by mail for a pending sign-in. */
export async function sendTwoFactorOtp(ctx: AuthContext, subject: TwoFactorSubject, locale: Locale): Promise<void> {
  const { challenge, user } = otpSignIn(ctx, subject);
  const code = randomString(OTP_DIGITS, DIGITS);
  const { period } = ctx.options.twoFactor.otp;
  const expiresAt = new Date(ctx.now().getTime() + period * 1000);
  await ctx.db.transaction().execute(async (trx) => {
    await setChallengeOtp(trx, challenge.tokenHash, sha256Base64Url(code), expiresAt);
    await ctx.mail.enqueue(trx, twoFactorCodeMail(locale, user.email, code, period));
  });
  ctx.mail.wake();
}

/** POST /two-factor/verify-otp: the mailed code of this challenge. */
export async function verifyTwoFactorOtp(
  ctx: AuthContext,
  subject: TwoFactorSubject,
  input: { code: string; trustDevice?: boolean },
  meta: RequestMeta,
): Promise<SecondFactorOutcome> {
  const { challenge } = otpSignIn(ctx, subject);
  if (!challenge.otpHash || !challenge.otpExpiresAt) throw new AuthError("INVALID_CODE");
  if (challenge.otpExpiresAt.getTime() <= ctx.now().getTime()) throw new AuthError("OTP_HAS_EXPIRED");
  const otpHash = challenge.otpHash;
  await checkCode(ctx, subject, "INVALID_CODE", async () => safeEqual(sha256Base64Url(input.code), otpHash));
  return complete(ctx, subject, meta, input.trustDevice === true, null);
}
