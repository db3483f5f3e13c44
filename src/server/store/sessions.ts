import { sql } from "kysely";
import type { Session } from "../../contract/models.js";
import { copyFields, NO_FIELDS, storedValues, type TableFields } from "./additional-fields.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { type CallerSessionRead, readCallerList, readPrecompiled } from "./reads/index.js";
import type { SessionRow } from "./rows.js";
import { isoTimestamp, type TimeOf, toDate, type WithTimes } from "./values.js";

export type { SessionRow };

/**
 * The wire Session; `token` is the caller's own token, or a revocation handle in lists. With
 * `fields`, also the app's own returned fields.
 */
export function mapSession(row: SessionRow, token: string, time?: TimeOf<Date>, fields?: TableFields): Session;
export function mapSession<T>(
  row: SessionRow,
  token: string,
  time: TimeOf<T>,
  fields?: TableFields,
): WithTimes<Session, T>;
export function mapSession(
  row: SessionRow,
  token: string,
  time: TimeOf<unknown> = toDate,
  fields: TableFields = NO_FIELDS,
): WithTimes<Session, unknown> {
  const session = {
    id: row.id,
    token,
    userId: row.userId,
    expiresAt: time(row.expiresAt),
    createdAt: time(row.createdAt),
    updatedAt: time(row.updatedAt),
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    activeOrganizationId: row.activeOrganizationId,
    activeTeamId: row.activeTeamId,
    impersonatedBy: row.impersonatedBy,
  };
  if (fields.returned.length > 0) copyFields(session, row as unknown as Record<string, unknown>, fields, time);
  return session;
}

export interface NewSession {
  id: string;
  tokenHash: string;
  userId: string;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId?: string | null;
  activeTeamId?: string | null;
  impersonatedBy?: string | null;
  /** How it was signed in (organization policy reads it). */
  signInMethod?: string | null;
  /** The SSO connection that signed it in. */
  signInProviderId?: string | null;
  now: Date;
  /** The app's own fields (their defaults, or what the server set). */
  fields?: { spec: TableFields; values: Readonly<Record<string, unknown>> };
}

export async function insertSession(db: DB, session: NewSession): Promise<SessionRow> {
  return db
    .insertInto("session")
    .values({
      id: session.id,
      tokenHash: session.tokenHash,
      userId: session.userId,
      expiresAt: session.expiresAt,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      activeOrganizationId: session.activeOrganizationId ?? null,
      activeTeamId: session.activeTeamId ?? null,
      impersonatedBy: session.impersonatedBy ?? null,
      signInMethod: session.signInMethod ?? null,
      signInProviderId: session.signInProviderId ?? null,
      createdAt: session.now,
      updatedAt: session.now,
      ...(session.fields ? storedValues(session.fields.spec, session.fields.values) : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function extendSession(db: DB, id: string, expiresAt: Date, now: Date): Promise<void> {
  await db.updateTable("session").set({ expiresAt, updatedAt: now }).where("id", "=", id).execute();
}

/** Sets the app's own fields of a session (update-session); answers the row, or undefined when gone. */
export async function updateSessionFields(
  db: DB,
  id: string,
  fields: { spec: TableFields; values: Readonly<Record<string, unknown>> },
  now: Date,
): Promise<SessionRow | undefined> {
  return db
    .updateTable("session")
    .set({ ...storedValues(fields.spec, fields.values), updatedAt: now })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteSessionById(db: DB, id: string): Promise<void> {
  await db.deleteFrom("session").where("id", "=", id).execute();
}

/** What a deletion hands back: enough for a session.revoked event, no token digest. */
const REVOKED_COLUMNS = ["id", "userId", "ipAddress", "userAgent", "expiresAt"] as const;
export type RevokedSessionRow = Pick<SessionRow, (typeof REVOKED_COLUMNS)[number]>;

/** Deletes the session with this token digest; answers it (null when there was none). */
export async function deleteSessionByTokenHash(db: DB, tokenHash: string): Promise<RevokedSessionRow | null> {
  const row = await db
    .deleteFrom("session")
    .where("tokenHash", "=", tokenHash)
    .returning(REVOKED_COLUMNS)
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes one of the user's sessions named by its token digest or its revocation handle (the id). */
export async function deleteUserSession(
  db: DB,
  userId: string,
  tokenHash: string,
  handle: string,
): Promise<RevokedSessionRow[]> {
  return db
    .deleteFrom("session")
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("tokenHash", "=", tokenHash), eb("id", "=", handle)]))
    .returning(REVOKED_COLUMNS)
    .execute();
}

/** Deletes the user's sessions (but `exceptId`); answers those that went, for session.revoked. */
export async function deleteUserSessions(
  db: DB,
  userId: string,
  options: { exceptId?: string } = {},
): Promise<RevokedSessionRow[]> {
  let query = db.deleteFrom("session").where("userId", "=", userId);
  if (options.exceptId) query = query.where("id", "!=", options.exceptId);
  return query.returning(REVOKED_COLUMNS).execute();
}

/** Deletes the user's sessions acting in the organization (its active one); answers those that went. */
export async function deleteUserSessionsIn(
  db: DB,
  userId: string,
  organizationId: string,
): Promise<RevokedSessionRow[]> {
  return db
    .deleteFrom("session")
    .where("userId", "=", userId)
    .where("activeOrganizationId", "=", organizationId)
    .returning(REVOKED_COLUMNS)
    .execute();
}

/** Deletes the user's sessions made by one sign-in method; answers those that went. */
export async function deleteUserSessionsSignedInBy(
  db: DB,
  userId: string,
  signInMethod: string,
): Promise<RevokedSessionRow[]> {
  return db
    .deleteFrom("session")
    .where("userId", "=", userId)
    .where("signInMethod", "=", signInMethod)
    .returning(REVOKED_COLUMNS)
    .execute();
}

export async function listActiveUserSessions(db: DB, userId: string, now: Date): Promise<SessionRow[]> {
  return readPrecompiled(db, "activeUserSessions", [userId, now], ([user, at]) =>
    db
      .selectFrom("session")
      .selectAll()
      .where("userId", "=", user as string)
      .where("expiresAt", ">", at as Date)
      .orderBy("createdAt", "desc"),
  );
}

/**
 * With the caller's session, the user's live sessions, newest first (as listActiveUserSessions),
 * each with its id where the token would be (the list never shows tokens).
 */
export function readCallerSessionList(
  dialect: DialectName,
  now: Date,
  fields: TableFields,
  fieldsKey: string,
): CallerSessionRead<WithTimes<Session, string>[]> {
  return readCallerList(
    dialect,
    `sessions${fieldsKey}`,
    [now],
    (eb, [at]) =>
      eb
        .selectFrom("session")
        .select([
          "session.id",
          "session.userId",
          "session.expiresAt",
          "session.ipAddress",
          "session.userAgent",
          "session.activeOrganizationId",
          "session.activeTeamId",
          "session.impersonatedBy",
          "session.createdAt",
          "session.updatedAt",
          ...fields.returned.map((f) => sql.ref<unknown>(`session.${f.name}`).as(f.name)),
        ])
        .whereRef("session.userId", "=", "callerSession.userId")
        .where("session.expiresAt", ">", at as Date)
        .orderBy("session.createdAt", "desc"),
    // The list never reads tokenHash (only the caller's own session needs it): the rows lack it.
    (row) => mapSession(row as SessionRow, row.id, isoTimestamp, fields),
  );
}

/** Which user a session (named by token digest or handle) belongs to. */
export async function findSessionOwner(
  db: DB,
  tokenHash: string,
  handle: string,
): Promise<{ id: string; userId: string } | null> {
  const row = await db
    .selectFrom("session")
    .select(["id", "userId"])
    .where((eb) => eb.or([eb("tokenHash", "=", tokenHash), eb("id", "=", handle)]))
    .executeTakeFirst();
  return row ?? null;
}
