import type { Session, SessionWithUser, User } from "../../contract/models.js";
import type { SignInMethod } from "../../contract/organization-policy.js";
import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { newId, randomString } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import {
  type CallerRead,
  type CallerRulesRows,
  type CallerSessionRows,
  callerAsText,
  type RowsOf,
  readCaller,
  type SessionText,
  type SessionWithUserText,
} from "../store/caller-reads.js";
import type { DB } from "../store/database.js";
import { type ProofMethod, recordSessionProof } from "../store/session-proofs.js";
import { deleteSessionById, extendSession, mapSession, type RevokedSessionRow } from "../store/sessions.js";
import { findBanState, liftBan } from "../store/users.js";
import { toDate } from "../store/values.js";
import { defaultFieldValues } from "./additional-fields.js";
import {
  createSessionRow,
  deleteAllUserSessions,
  deleteOneUserSession,
  deleteSessionByToken,
  deleteUserSessionsInOrganization,
  deleteUserSessionsSignedInByMethod,
} from "./hooked-writes.js";
import { noteSignInDevice } from "./known-devices.js";
import { auditBreakGlass, checkSignInMethod } from "./organization-policy.js";
import type { RequestMeta } from "./request-meta.js";
import { isTrustedDevice } from "./trusted-devices.js";

/** Where a request came from, as recorded on the session. */
export type { RequestMeta };

/** A session that is not remembered lasts a day at most (the browser drops its cookie sooner). */
const NOT_REMEMBERED_SECONDS = 86400;

/** Session tokens: 32 alphanumeric characters (~190 bits); only their SHA-256 is stored. */
export function newSessionToken(): string {
  return randomString(32);
}

export const hashSessionToken = sha256Base64Url;

export interface CreateSessionOptions {
  rememberMe: boolean;
  activeOrganizationId?: string | null;
  activeTeamId?: string | null;
  impersonatedBy?: string | null;
  expiresInSeconds?: number;
  /** The user as the caller just read them, so the ban and two-factor checks need no extra query. */
  knownUser?: Pick<User, "id" | "email" | "banned" | "banReason" | "banExpires" | "twoFactorEnabled">;
  /**
   * Why this session needs no second factor: it replaces one the user already has (`rotation`), an
   * admin opens it (`impersonation`), or the second factor was just checked (`verified`). Without a
   * reason, a user with two-factor on gets no session: TwoFactorRequired instead.
   */
  secondFactor?: "rotation" | "impersonation" | "verified" | "passkey";
  /**
   * How the user just proved who they are, recorded for the credential guard (a passkey sign-in is
   * one by itself). A sign-in link or mailed code proves only the mailbox, so gives none.
   */
  proof?: ProofMethod;
  /**
   * How the user signed in, recorded on the session for organization policy (the first factor: a
   * password sign-in finished by a TOTP code is `password`). Enforced SSO is checked against it.
   */
  signInMethod?: SignInMethod;
  /** The SSO connection (providerId) that signed the user in: organization policy accepts only its own. */
  signInProviderId?: string;
}

/** A sign-in of a user with two-factor on, from an untrusted device: a challenge, not a session. */
export class TwoFactorRequired extends Error {
  override name = "TwoFactorRequired";
  constructor(
    readonly userId: string,
    /** How the sign-in began: the session the factor completes records it. */
    readonly signInMethod: SignInMethod | null = null,
    readonly signInProviderId: string | null = null,
  ) {
    super("a second factor is required");
  }
}

/**
 * Every sign-in method ends here, so this is where a ban is enforced (a banned user gets no session:
 * 403 BANNED_USER with the reason and expiry; a ban that has run out is lifted) and where the second
 * factor is owed (TwoFactorRequired, unless the device is trusted or `secondFactor` says why not).
 */
export async function createSession(
  ctx: AuthContext,
  db: DB,
  userId: string,
  meta: RequestMeta,
  options: CreateSessionOptions,
): Promise<Session> {
  const state = await assertNotBanned(ctx, db, userId, options.knownUser);
  const method = options.signInMethod ?? null;
  // Enforced SSO (a session that replaces or stands in for one was already judged when it was made).
  const ssoRule =
    method && options.secondFactor !== "rotation" && options.secondFactor !== "impersonation"
      ? await checkSignInMethod(ctx, db, userId, method, options.knownUser?.id === userId ? options.knownUser : null)
      : null;
  const breakGlass = ssoRule?.breakGlass ?? null;
  if (state?.twoFactorEnabled && !options.secondFactor && ctx.options.twoFactor.enabled) {
    // The break-glass path always owes the second factor: a trusted device does not stand in for it.
    const trusted =
      !breakGlass && meta.trustedDeviceToken && (await isTrustedDevice(db, meta.trustedDeviceToken, userId, ctx.now()));
    if (!trusted) throw new TwoFactorRequired(userId, method, options.signInProviderId);
  }
  if (breakGlass && options.secondFactor !== "verified") throw new TwoFactorRequired(userId, method);
  const token = newSessionToken();
  const now = ctx.now();
  const { expiresIn, absoluteLifetime } = ctx.options.session;
  const lifetime = Math.min(
    absoluteLifetime,
    options.expiresInSeconds ?? (options.rememberMe ? expiresIn : Math.min(NOT_REMEMBERED_SECONDS, expiresIn)),
  );
  const session = {
    id: newId(),
    tokenHash: hashSessionToken(token),
    userId,
    expiresAt: new Date(now.getTime() + lifetime * 1000),
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent,
    activeOrganizationId: options.activeOrganizationId,
    activeTeamId: options.activeTeamId,
    impersonatedBy: options.impersonatedBy,
    signInMethod: method,
    signInProviderId: options.signInProviderId ?? null,
    now,
    fields: { spec: ctx.fields.session, values: defaultFieldValues(ctx.fields.session) },
  };
  const proof = options.proof ?? (options.secondFactor === "passkey" ? "passkey" : undefined);
  // A sign-in (not a session replacing one, nor an admin's) notes its device: a new one is mailed.
  const device =
    meta.deviceId && options.secondFactor !== "rotation" && options.secondFactor !== "impersonation"
      ? meta.deviceId
      : null;
  const write = (trx: DB) =>
    ctx.webhooks.atomic(
      trx,
      "session.created",
      async (trx) => {
        const inserted = await createSessionRow(ctx, trx, session);
        if (proof) await recordSessionProof(trx, inserted.id, proof, now);
        if (breakGlass) await auditBreakGlass(ctx, trx, userId, breakGlass);
        if (device) await noteSignInDevice(ctx, trx, userId, device, meta);
        await ctx.webhooks.enqueue(trx, "session.created", inserted);
        return inserted;
      },
      { subjectId: userId },
    );
  // The session and its proof, break-glass entry or device are rows that commit together.
  const inTransaction = proof || breakGlass || device;
  const row = inTransaction && !db.isTransaction ? await db.transaction().execute(write) : await write(db);
  return mapSession(row, token, toDate, ctx.fields.session);
}

async function assertNotBanned(
  ctx: AuthContext,
  db: DB,
  userId: string,
  known: CreateSessionOptions["knownUser"],
): Promise<{ twoFactorEnabled: boolean } | null> {
  const state = known?.id === userId ? known : await findBanState(db, userId);
  if (!state?.banned) return state;
  const now = ctx.now();
  if (state.banExpires && state.banExpires.getTime() <= now.getTime()) {
    await ctx.webhooks.atomic(
      db,
      "user.updated",
      async (trx) => {
        await ctx.webhooks.enqueue(trx, "user.updated", await liftBan(trx, userId, now));
      },
      { subjectId: userId },
    );
    return state;
  }
  throw bannedError(state.banReason, state.banExpires);
}

export function bannedError(banReason: string | null, banExpires: Date | null): AuthError {
  const until = banExpires ? ` until ${banExpires.toISOString()}` : "";
  const reason = banReason ? `: ${banReason}` : "";
  return new AuthError("BANNED_USER", {
    message: `You have been banned from this application${until}${reason}`,
    details: { banReason, banExpires: banExpires?.toISOString() ?? null },
  });
}

export type SessionLookup =
  | {
      status: "active";
      data: SessionWithUser;
      refreshed: boolean;
      /** The rows `data` was made from, while nothing changed them (unrefreshed): sessionReply answers from them. */
      read?: CallerSessionRows;
    }
  | { status: "expired" }
  | { status: "missing" };

export type { CallerRead, CallerRulesRows, RowsOf };

/**
 * The session for a token: one indexed read. An expired session is deleted. With `refresh`, a session
 * whose last extension is at least updateAge old is extended to a full expiresIn (one write, at most
 * once per updateAge).
 */
export async function lookupSession(
  ctx: AuthContext,
  token: string,
  options: { refresh: boolean },
): Promise<SessionLookup> {
  return (await lookupSessionWith(ctx, token, { rows: "none" }, options)).lookup;
}

/**
 * lookupSession, with the rows `read` names read in the same statement (store/caller-reads.ts). The
 * rows count only when the lookup is active: those of a dead session are dropped. With `rules`, the
 * statement also reads what organization policy needs of the caller (services/organization-policy.ts).
 */
export async function lookupSessionWith<R extends CallerRead>(
  ctx: AuthContext,
  token: string,
  read: R,
  options: { refresh: boolean; rules?: boolean },
  now: Date = ctx.now(),
): Promise<{ lookup: SessionLookup; rows: RowsOf<R> | undefined; rules?: CallerRulesRows }> {
  const tokenHash = hashSessionToken(token);
  const found = await readCaller(
    ctx.db,
    ctx.dialect,
    tokenHash,
    token,
    read,
    ctx.memberPages,
    ctx.fields,
    options.rules === true,
  );
  const settled = settleSession(ctx, found.found, options, now);
  // Most lookups settle without a write: no turn to wait for then.
  const lookup = settled instanceof Promise ? await settled : settled;
  // What was read is what is answered, unless the refresh just changed it.
  if (lookup.status === "active" && !lookup.refreshed && found.read) lookup.read = found.read;
  const active = lookup.status === "active";
  return { lookup, rows: active ? found.rows : undefined, rules: active ? found.rules : undefined };
}

/**
 * get-session's answer for an active lookup: from the row's own timestamp text where nothing changed
 * it (turning Dates back into text would cost the reply more than the rest), else from `data`.
 */
export function sessionReply(
  ctx: AuthContext,
  lookup: SessionLookup & { status: "active" },
  token: string,
): SessionWithUser | SessionWithUserText {
  return lookup.read ? callerAsText(lookup.read, token, ctx.fields) : lookup.data;
}

/** Every rule a found session passes before it counts: expiry, ban, then the sliding refresh. */
function settleSession(
  ctx: AuthContext,
  data: SessionWithUser | null,
  options: { refresh: boolean },
  now: Date,
): SessionLookup | Promise<SessionLookup> {
  if (!data) return { status: "missing" };
  const { banned, banExpires } = data.user;
  const bannedNow = banned && (!banExpires || banExpires.getTime() > now.getTime());
  // A ban ends sessions at once; the user comes with the session row, so this costs no query.
  if (data.session.expiresAt.getTime() <= now.getTime() || bannedNow) return endSession(ctx, data.session.id);
  if (!options.refresh) return { status: "active", data, refreshed: false };

  const { expiresIn, updateAge, absoluteLifetime } = ctx.options.session;
  const lastExtendedMs = data.session.expiresAt.getTime() - expiresIn * 1000;
  if (lastExtendedMs + updateAge * 1000 > now.getTime()) return { status: "active", data, refreshed: false };

  // Sliding, but never past the absolute lifetime; once there, nothing is written any more.
  const latestMs = data.session.createdAt.getTime() + absoluteLifetime * 1000;
  const expiresAt = new Date(Math.min(now.getTime() + expiresIn * 1000, latestMs));
  if (expiresAt.getTime() <= data.session.expiresAt.getTime()) return { status: "active", data, refreshed: false };
  return slideSession(ctx, data, expiresAt, now);
}

async function endSession(ctx: AuthContext, sessionId: string): Promise<SessionLookup> {
  await deleteSessionById(ctx.db, sessionId);
  return { status: "expired" };
}

async function slideSession(
  ctx: AuthContext,
  data: SessionWithUser,
  expiresAt: Date,
  now: Date,
): Promise<SessionLookup> {
  await extendSession(ctx.db, data.session.id, expiresAt, now);
  return {
    status: "active",
    data: { ...data, session: { ...data.session, expiresAt, updatedAt: now } },
    refreshed: true,
  };
}

export function isSessionFresh(ctx: AuthContext, session: Session): boolean {
  const { freshAge } = ctx.options.session;
  if (freshAge === 0) return true;
  return ctx.now().getTime() - session.createdAt.getTime() < freshAge * 1000;
}

export async function signOut(ctx: AuthContext, token: string): Promise<void> {
  const revoked = await ctx.webhooks.atomic(ctx.db, "session.revoked", async (db) => {
    const row = await deleteSessionByToken(ctx, db, hashSessionToken(token));
    if (row) await ctx.webhooks.enqueue(db, "session.revoked", row);
    return row;
  });
  if (revoked) await ctx.revocations.revokeUser(revoked.userId);
}

/** What list-sessions reads with the caller's session: the user's live sessions. */
export function liveSessionsRead(ctx: AuthContext): CallerRead & { rows: "sessions" } {
  return { rows: "sessions", now: ctx.now() };
}

/** list-sessions' answer: each session carries its revocation handle (the id), never its token. */
export function listedSessions(rows: SessionText[], caller: Session): (SessionText & { current: boolean })[] {
  // An admin's impersonation session is theirs to end (stop-impersonating), not the user's to see.
  return rows
    .filter((row) => !row.impersonatedBy || row.id === caller.id)
    .map((row) => ({ ...row, current: row.id === caller.id }));
}

/** Revokes one of the caller's sessions, named by its token or its handle. Someone else's is left alone. */
export async function revokeSession(ctx: AuthContext, userId: string, tokenOrHandle: string): Promise<void> {
  const deleted = await ctx.webhooks.atomic(
    ctx.db,
    "session.revoked",
    async (db) => {
      const rows = await deleteOneUserSession(ctx, db, userId, hashSessionToken(tokenOrHandle), tokenOrHandle);
      await ctx.webhooks.enqueue(db, "session.revoked", rows);
      return rows;
    },
    { subjectId: userId },
  );
  if (deleted.length > 0) await ctx.revocations.revokeUser(userId);
}

/**
 * Ends the user's sessions (all, or all but `exceptId`) and queues session.revoked for each; `db` may
 * be a transaction the caller owns, and the caller then tells ctx.revocations after it commits.
 * Answers how many sessions ended.
 */
export function revokeAllSessions(
  ctx: AuthContext,
  db: DB,
  userId: string,
  options: { exceptId?: string } = {},
): Promise<number> {
  return revokeUserSessionRows(ctx, db, userId, (trx) => deleteAllUserSessions(ctx, trx, userId, options));
}

/** Ends the user's sessions whose active organization is this one; how many went. */
export function revokeOrganizationSessions(
  ctx: AuthContext,
  db: DB,
  userId: string,
  organizationId: string,
): Promise<number> {
  return revokeUserSessionRows(ctx, db, userId, (trx) =>
    deleteUserSessionsInOrganization(ctx, trx, userId, organizationId),
  );
}

/** Ends the user's sessions made by one sign-in method; how many went. */
export function revokeSessionsSignedInBy(
  ctx: AuthContext,
  db: DB,
  userId: string,
  signInMethod: string,
): Promise<number> {
  return revokeUserSessionRows(ctx, db, userId, (trx) =>
    deleteUserSessionsSignedInByMethod(ctx, trx, userId, signInMethod),
  );
}

/** Deletes some of one user's sessions with `remove` and queues session.revoked for each; how many went. */
function revokeUserSessionRows(
  ctx: AuthContext,
  db: DB,
  userId: string,
  remove: (db: DB) => Promise<readonly RevokedSessionRow[]>,
): Promise<number> {
  return ctx.webhooks.atomic(
    db,
    "session.revoked",
    async (trx) => {
      const revoked = await remove(trx);
      await ctx.webhooks.enqueue(trx, "session.revoked", revoked);
      return revoked.length;
    },
    { subjectId: userId },
  );
}

/** Ends every session of the user (revoke-sessions) and refuses every cached copy of them. */
export async function signOutEverywhere(ctx: AuthContext, userId: string): Promise<void> {
  await revokeAllSessions(ctx, ctx.db, userId);
  await ctx.revocations.revokeUser(userId);
}

export async function revokeOtherSessions(ctx: AuthContext, caller: Session): Promise<void> {
  await revokeAllSessions(ctx, ctx.db, caller.userId, { exceptId: caller.id });
  await ctx.revocations.revokeUser(caller.userId);
}
