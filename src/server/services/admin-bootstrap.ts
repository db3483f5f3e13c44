import type { User } from "../../contract/models.js";
import { parseRoles } from "../../contract/roles.js";
import { recordAudit } from "../audit/admin-log.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { isUniqueViolation } from "../store/database.js";
import { findUserByEmail } from "../store/users.js";
import { isAdminUser } from "./admin-access.js";
import { assertNewPasswordAcceptable, normalizeEmail } from "./credentials.js";
import { createCredentialAccount, createUserRow, updateUserRow } from "./hooked-writes.js";
import { stripUnprovenAccount } from "./mailbox-proof.js";
import { revokeAllSessions } from "./sessions.js";

export interface AdminBootstrapInput {
  email: string;
  /** Needed to create the user, and to adopt one; a verified existing user keeps their password. */
  password?: string;
  name?: string;
  /**
   * Take over an existing account whose address was never verified: its password is replaced and
   * every other credential and session removed. Without it such an account is refused.
   */
  adopt?: boolean;
}

export interface AdminBootstrapResult {
  /**
   * created: a new user; promoted: a verified user got the admin role; adopted: an unverified account
   * was taken over; unchanged: already an admin.
   */
  outcome: "created" | "promoted" | "adopted" | "unchanged";
  user: User;
}

/** Recorded on the audit log for changes made from the command line (there is no request). */
const OPERATOR_META = { ipAddress: null, userAgent: "gatehouse create-admin", locale: "en" } as const;

/**
 * `gatehouse create-admin`: the operator makes an admin without an admin session (the first one).
 * Creates the user with the first of admin.adminRoles (email verified: the operator vouches for the
 * address), or adds that role to a verified existing user's roles (an unverified one only on
 * `adopt`). Running it again changes nothing. The
 * audit log names the user as their own actor, with the tool as the user agent.
 */
export async function ensureAdminUser(ctx: AuthContext, input: AdminBootstrapInput): Promise<AdminBootstrapResult> {
  const adminRole = ctx.options.admin.adminRoles[0];
  if (!adminRole) throw new Error('admin.adminRoles is empty: there is no role to give (set e.g. ["admin"])');
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) return takeExisting(ctx, existing, adminRole, input);
  if (input.password === undefined) {
    throw new AuthError("VALIDATION_ERROR", {
      message: `no user has the email ${email}: give a password to create one`,
    });
  }
  assertNewPasswordAcceptable(ctx, input.password);
  const passwordHash = await ctx.hasher.hash(input.password);
  const now = ctx.now();
  try {
    const user = await ctx.db.transaction().execute(async (trx) => {
      const user = await createUserRow(ctx, trx, {
        id: newId(),
        name: (input.name ?? email.split("@")[0] ?? email).trim(),
        email,
        emailVerified: true,
        image: null,
        role: adminRole,
        now,
      });
      await createCredentialAccount(ctx, trx, { id: newId(), userId: user.id, passwordHash, now });
      await recordAudit(ctx, trx, {
        actorUserId: user.id,
        action: "user.create",
        targetUserId: user.id,
        meta: OPERATOR_META,
        details: { role: adminRole },
      });
      return user;
    });
    return { outcome: "created", user };
  } catch (error) {
    // Someone signed up with this address meanwhile: the same rules as for an existing account.
    if (!isUniqueViolation(error)) throw error;
    const raced = await findUserByEmail(ctx.db, email);
    if (!raced) throw error;
    return takeExisting(ctx, raced, adminRole, input);
  }
}

/**
 * An existing account: a verified one is promoted as it is. One whose address was never proven may
 * belong to whoever registered it first (account pre-hijacking): refused, unless the operator asks to
 * adopt it, which leaves nothing of what its creator set up.
 */
async function takeExisting(
  ctx: AuthContext,
  user: User,
  adminRole: string,
  input: AdminBootstrapInput,
): Promise<AdminBootstrapResult> {
  if (user.emailVerified) return promote(ctx, user, adminRole);
  if (!input.adopt) {
    throw new AuthError("UNVERIFIED_ACCOUNT_EXISTS", {
      message: `${user.email} has an account whose address was never verified (anyone could have registered it); adopt it to replace its password and remove every credential and session it has`,
    });
  }
  if (input.password === undefined) {
    throw new AuthError("VALIDATION_ERROR", { message: `adopting ${user.email} needs a new password` });
  }
  assertNewPasswordAcceptable(ctx, input.password);
  const passwordHash = await ctx.hasher.hash(input.password);
  const now = ctx.now();
  const role = isAdminUser(ctx, user) ? (user.role ?? adminRole) : [...parseRoles(user.role), adminRole].join(",");
  const adopted = await ctx.db.transaction().execute(async (trx) => {
    await stripUnprovenAccount(ctx, trx, user, "everything");
    await revokeAllSessions(ctx, trx, user.id);
    await createCredentialAccount(ctx, trx, { id: newId(), userId: user.id, passwordHash, now });
    const patch = { role, emailVerified: true, ...(input.name ? { name: input.name.trim() } : {}) };
    const updated = await updateUserRow(ctx, trx, user.id, patch, now);
    if (!updated) throw new AuthError("USER_NOT_FOUND", { status: 404 });
    await ctx.webhooks.enqueue(trx, "user.updated", updated);
    await recordAudit(ctx, trx, {
      actorUserId: user.id,
      action: "user.adopt",
      targetUserId: user.id,
      meta: OPERATOR_META,
      details: { role },
    });
    return updated;
  });
  await ctx.revocations.revokeUser(user.id);
  return { outcome: "adopted", user: adopted };
}

async function promote(ctx: AuthContext, user: User, adminRole: string): Promise<AdminBootstrapResult> {
  if (isAdminUser(ctx, user)) return { outcome: "unchanged", user };
  const role = [...parseRoles(user.role), adminRole].join(",");
  const promoted = await ctx.db.transaction().execute(async (trx) => {
    const updated = await updateUserRow(ctx, trx, user.id, { role }, ctx.now());
    if (!updated) throw new AuthError("USER_NOT_FOUND", { status: 404 });
    await recordAudit(ctx, trx, {
      actorUserId: user.id,
      action: "user.set-role",
      targetUserId: user.id,
      meta: OPERATOR_META,
      details: { role },
    });
    return updated;
  });
  return { outcome: "promoted", user: promoted };
}
