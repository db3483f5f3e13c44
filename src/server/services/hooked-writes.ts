import type { Member, Organization, User } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { BeforeWrite, DatabaseHooks } from "../hooks.js";
import { deleteUserAndOwnedRows } from "../store/account-deletion.js";
import { CREDENTIAL_PROVIDER, insertCredentialAccount } from "../store/accounts.js";
import type { DB } from "../store/database.js";
import { deleteMemberWithTeams, insertMember, updateMemberRoleRow } from "../store/members.js";
import {
  deleteOrganizationWithContents,
  findOrganization,
  insertOrganization,
  updateOrganizationRow,
} from "../store/organizations.js";
import {
  deleteSessionByTokenHash,
  deleteUserSession,
  deleteUserSessions,
  deleteUserSessionsIn,
  deleteUserSessionsSignedInBy,
  insertSession,
  type NewSession,
  type RevokedSessionRow,
  type SessionRow,
} from "../store/sessions.js";
import { insertSocialAccount } from "../store/social-accounts.js";
import { findUserById, insertUser, type NewUser, updateUserProfile } from "../store/users.js";

/**
 * The one place where users, sessions, accounts, organizations and members are created, updated
 * and deleted, so the app's database hooks (createAuth's `databaseHooks`) see every such write.
 * Hooks run in the change's transaction (one is opened when the caller has none): a refusal or an
 * error in `after` undoes the write. Without a hook for a write, it is the bare store call.
 */

type Model = keyof DatabaseHooks;
type Hook = ((...args: never[]) => unknown) | undefined;
interface Pair {
  before?: Hook;
  after?: Hook;
}

function hooksFor(ctx: AuthContext, model: Model, action: "create" | "update" | "delete"): Pair | undefined {
  const pair = (ctx.databaseHooks?.[model] as Record<string, Pair | undefined> | undefined)?.[action];
  return pair?.before || pair?.after ? pair : undefined;
}

function inTransaction<T>(db: DB, change: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? change(db) : db.transaction().execute(change);
}

/** A before hook's answer applied: false refuses the write, `{ data }` is merged over it. */
function applied<D>(answer: unknown, data: D): D {
  if (answer === false) throw new AuthError("FORBIDDEN");
  const change = answer as BeforeWrite<D>;
  return change && typeof change === "object" && change.data ? { ...data, ...change.data } : data;
}

async function hookedCreate<D, R>(
  ctx: AuthContext,
  db: DB,
  model: Model,
  data: D,
  write: (db: DB, data: D) => Promise<R>,
  shown: (row: R, data: D) => unknown = (row) => row,
): Promise<R> {
  const hooks = hooksFor(ctx, model, "create");
  if (!hooks) return write(db, data);
  const { before, after } = hooks as { before?: (d: D) => unknown; after?: (row: unknown) => unknown };
  return inTransaction(db, async (trx) => {
    const final = before ? applied(await before(data), data) : data;
    const row = await write(trx, final);
    if (after) await after(shown(row, final));
    return row;
  });
}

async function hookedUpdate<P, R>(
  ctx: AuthContext,
  db: DB,
  model: Model,
  id: string,
  patch: P,
  write: (db: DB, patch: P) => Promise<R | null>,
): Promise<R | null> {
  const hooks = hooksFor(ctx, model, "update");
  if (!hooks) return write(db, patch);
  const { before, after } = hooks as {
    before?: (p: P, target: { id: string }) => unknown;
    after?: (row: R) => unknown;
  };
  return inTransaction(db, async (trx) => {
    const final = before ? applied(await before(patch, { id }), patch) : patch;
    const row = await write(trx, final);
    if (row && after) await after(row);
    return row;
  });
}

async function hookedDelete<Row, R>(
  ctx: AuthContext,
  db: DB,
  model: Model,
  find: (db: DB) => Promise<Row | null>,
  remove: (db: DB) => Promise<R>,
): Promise<R> {
  const hooks = hooksFor(ctx, model, "delete");
  if (!hooks) return remove(db);
  const { before, after } = hooks as { before?: (row: Row) => unknown; after?: (row: Row) => unknown };
  return inTransaction(db, async (trx) => {
    const row = await find(trx);
    if (row && before && (await before(row)) === false) throw new AuthError("FORBIDDEN");
    const result = await remove(trx);
    if (row && after) await after(row);
    return result;
  });
}

/**
 * A delete that answers the rows it removed (sessions): the hooks see each one inside the
 * transaction, and a refusal of any undoes them all.
 */
async function hookedDeleteReturning<Row>(
  ctx: AuthContext,
  db: DB,
  model: Model,
  remove: (db: DB) => Promise<Row[]>,
): Promise<Row[]> {
  const hooks = hooksFor(ctx, model, "delete");
  if (!hooks) return remove(db);
  const { before, after } = hooks as { before?: (row: Row) => unknown; after?: (row: Row) => unknown };
  return inTransaction(db, async (trx) => {
    const rows = await remove(trx);
    if (before) for (const row of rows) if ((await before(row)) === false) throw new AuthError("FORBIDDEN");
    if (after) for (const row of rows) await after(row);
    return rows;
  });
}

export const createUserRow = (ctx: AuthContext, db: DB, user: NewUser): Promise<User> =>
  hookedCreate(ctx, db, "user", user, insertUser);

export const updateUserRow = (
  ctx: AuthContext,
  db: DB,
  id: string,
  patch: Parameters<typeof updateUserProfile>[2],
  now: Date,
  fields?: Parameters<typeof updateUserProfile>[4],
): Promise<User | null> =>
  hookedUpdate(ctx, db, "user", id, patch, (trx, final) => updateUserProfile(trx, id, final, now, fields));

/** The user with everything they own (services/account-deletion.ts): the user as they were, or null. */
export const deleteUserRows = (ctx: AuthContext, db: DB, userId: string): Promise<User | null> =>
  hookedDelete(
    ctx,
    db,
    "user",
    (trx) => findUserById(trx, userId),
    (trx) => deleteUserAndOwnedRows(trx, userId),
  );

export const createSessionRow = (ctx: AuthContext, db: DB, session: NewSession): Promise<SessionRow> =>
  hookedCreate(ctx, db, "session", session, insertSession);

/** Sign-out: the session with this token digest, as it was, or null. */
export const deleteSessionByToken = async (
  ctx: AuthContext,
  db: DB,
  tokenHash: string,
): Promise<RevokedSessionRow | null> => {
  const rows = await hookedDeleteReturning(ctx, db, "session", async (trx) => {
    const row = await deleteSessionByTokenHash(trx, tokenHash);
    return row ? [row] : [];
  });
  return rows[0] ?? null;
};

/** One of the user's sessions, by token digest or handle (revoke-session). */
export const deleteOneUserSession = (
  ctx: AuthContext,
  db: DB,
  userId: string,
  tokenHash: string,
  handle: string,
): Promise<RevokedSessionRow[]> =>
  hookedDeleteReturning(ctx, db, "session", (trx) => deleteUserSession(trx, userId, tokenHash, handle));

/** The user's sessions but `exceptId` (revoke-sessions, revoke-other-sessions, password changes). */
export const deleteAllUserSessions = (
  ctx: AuthContext,
  db: DB,
  userId: string,
  options: { exceptId?: string } = {},
): Promise<RevokedSessionRow[]> =>
  hookedDeleteReturning(ctx, db, "session", (trx) => deleteUserSessions(trx, userId, options));

/** The user's sessions acting in one organization (a directory deprovisioning them there). */
export const deleteUserSessionsInOrganization = (
  ctx: AuthContext,
  db: DB,
  userId: string,
  organizationId: string,
): Promise<RevokedSessionRow[]> =>
  hookedDeleteReturning(ctx, db, "session", (trx) => deleteUserSessionsIn(trx, userId, organizationId));

/** The user's sessions made by one sign-in method (a break-glass owner's password sessions). */
export const deleteUserSessionsSignedInByMethod = (
  ctx: AuthContext,
  db: DB,
  userId: string,
  signInMethod: string,
): Promise<RevokedSessionRow[]> =>
  hookedDeleteReturning(ctx, db, "session", (trx) => deleteUserSessionsSignedInBy(trx, userId, signInMethod));

export const createCredentialAccount = (
  ctx: AuthContext,
  db: DB,
  account: { id: string; userId: string; passwordHash: string; now: Date },
): Promise<void> =>
  hookedCreate(
    ctx,
    db,
    "account",
    {
      id: account.id,
      userId: account.userId,
      providerId: CREDENTIAL_PROVIDER,
      accountId: account.userId,
      now: account.now,
    },
    (trx, data) => insertCredentialAccount(trx, { ...account, id: data.id, userId: data.userId, now: data.now }),
    (_, data) => data,
  );

export const createSocialAccount = (
  ctx: AuthContext,
  db: DB,
  account: Parameters<typeof insertSocialAccount>[1],
): Promise<void> => {
  const { tokens, ...data } = account;
  return hookedCreate(
    ctx,
    db,
    "account",
    data,
    (trx, final) => insertSocialAccount(trx, { ...final, tokens }),
    (_, final) => final,
  );
};

export const createOrganizationRow = (
  ctx: AuthContext,
  db: DB,
  org: Parameters<typeof insertOrganization>[1],
): Promise<Organization> => hookedCreate(ctx, db, "organization", org, insertOrganization);

export const updateOrganizationData = (
  ctx: AuthContext,
  db: DB,
  id: string,
  patch: Parameters<typeof updateOrganizationRow>[2],
  fields?: Parameters<typeof updateOrganizationRow>[3],
): Promise<Organization | null> =>
  hookedUpdate(ctx, db, "organization", id, patch, (trx, final) => updateOrganizationRow(trx, id, final, fields));

/** The organization with its teams, invitations and memberships: the organization as it was, or null. */
export const deleteOrganizationRows = (ctx: AuthContext, db: DB, id: string): Promise<Organization | null> =>
  hookedDelete(
    ctx,
    db,
    "organization",
    (trx) => findOrganization(trx, { id }),
    (trx) => deleteOrganizationWithContents(trx, id),
  );

export const createMemberRow = (
  ctx: AuthContext,
  db: DB,
  member: Parameters<typeof insertMember>[1],
): Promise<Member> => hookedCreate(ctx, db, "member", member, insertMember);

export const updateMemberRoleData = (
  ctx: AuthContext,
  db: DB,
  memberId: string,
  role: string,
): Promise<Member | null> =>
  hookedUpdate(ctx, db, "member", memberId, { role }, (trx, final) => updateMemberRoleRow(trx, memberId, final.role));

export const deleteMemberRow = (ctx: AuthContext, db: DB, member: Member): Promise<void> =>
  hookedDelete(
    ctx,
    db,
    "member",
    async () => member,
    (trx) => deleteMemberWithTeams(trx, member),
  );
