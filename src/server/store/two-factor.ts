import type { User } from "../../contract/models.js";
import type { DB } from "./db.js";
import { mapUser } from "./users.js";
import { toBool, toDate, toDateOrNull } from "./values.js";

export interface TwoFactorRecord {
  userId: string;
  /** Sealed with the TOTP cipher. */
  secret: string;
  /** SHA-256 of each unused backup code. */
  backupCodeHashes: string[];
  verified: boolean;
  lastUsedStep: number | null;
}

export interface TwoFactorChallenge {
  tokenHash: string;
  userId: string;
  rememberMe: boolean;
  otpHash: string | null;
  otpExpiresAt: Date | null;
  expiresAt: Date;
  /** How the sign-in began (null: not recorded). */
  signInMethod: string | null;
  /** The SSO connection it began at. */
  signInProviderId: string | null;
}

export async function findTwoFactor(db: DB, userId: string): Promise<TwoFactorRecord | null> {
  const row = await db.selectFrom("twoFactor").selectAll().where("userId", "=", userId).executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.userId,
    secret: row.secret,
    backupCodeHashes: JSON.parse(row.backupCodes) as string[],
    verified: toBool(row.verified),
    lastUsedStep: row.lastUsedStep === null ? null : Number(row.lastUsedStep),
  };
}

/** A new secret and codes replace any earlier, unconfirmed (or, on re-enrolment, old) ones. */
export async function saveTwoFactor(
  db: DB,
  input: { userId: string; secret: string; backupCodeHashes: string[]; verified: boolean; now: Date },
): Promise<void> {
  const values = {
    secret: input.secret,
    backupCodes: JSON.stringify(input.backupCodeHashes),
    verified: input.verified,
    lastUsedStep: null,
    updatedAt: input.now,
  };
  await db
    .insertInto("twoFactor")
    .values({ userId: input.userId, ...values, createdAt: input.now })
    .onConflict((oc) => oc.column("userId").doUpdateSet(values))
    .execute();
}

/**
 * Records an accepted TOTP step, only if it is later than the last one: false when another request
 * already used this step or a later one (a code is never accepted twice).
 */
export async function advanceTotpStep(db: DB, userId: string, step: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set({ lastUsedStep: step, verified: true, updatedAt: now })
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("lastUsedStep", "is", null), eb("lastUsedStep", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes one backup code, only if it is still there: false when it was already used. */
export async function spendBackupCode(
  db: DB,
  userId: string,
  remaining: string[],
  expected: string[],
): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set({ backupCodes: JSON.stringify(remaining) })
    .where("userId", "=", userId)
    .where("backupCodes", "=", JSON.stringify(expected))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceBackupCodes(db: DB, userId: string, hashes: string[], now: Date): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set({ backupCodes: JSON.stringify(hashes), updatedAt: now })
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTwoFactor(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("twoFactor").where("userId", "=", userId).execute();
}

/** Answers the user as they now are (for user.updated), or null when there was none. */
export async function setTwoFactorEnabled(db: DB, userId: string, enabled: boolean, now: Date): Promise<User | null> {
  const row = await db
    .updateTable("user")
    .set({ twoFactorEnabled: enabled, updatedAt: now })
    .where("id", "=", userId)
    .returningAll()
    .executeTakeFirst();
  return row ? mapUser(row) : null;
}

export async function insertChallenge(
  db: DB,
  input: {
    tokenHash: string;
    userId: string;
    rememberMe: boolean;
    signInMethod: string | null;
    signInProviderId: string | null;
    expiresAt: Date;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto("twoFactorChallenge")
    .values({
      tokenHash: input.tokenHash,
      userId: input.userId,
      rememberMe: input.rememberMe,
      signInMethod: input.signInMethod,
      signInProviderId: input.signInProviderId,
      expiresAt: input.expiresAt,
      createdAt: input.now,
    })
    .execute();
}

export async function findChallenge(db: DB, tokenHash: string): Promise<TwoFactorChallenge | null> {
  const row = await db
    .selectFrom("twoFactorChallenge")
    .selectAll()
    .where("tokenHash", "=", tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  return {
    tokenHash: row.tokenHash,
    userId: row.userId,
    rememberMe: toBool(row.rememberMe),
    otpHash: row.otpHash,
    otpExpiresAt: toDateOrNull(row.otpExpiresAt),
    expiresAt: toDate(row.expiresAt),
    signInMethod: row.signInMethod ?? null,
    signInProviderId: row.signInProviderId ?? null,
  };
}

export async function setChallengeOtp(db: DB, tokenHash: string, otpHash: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable("twoFactorChallenge")
    .set({ otpHash, otpExpiresAt: expiresAt })
    .where("tokenHash", "=", tokenHash)
    .execute();
}

/** Takes the challenge (single use): false when another request already did. */
export async function consumeChallenge(db: DB, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom("twoFactorChallenge").where("tokenHash", "=", tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
