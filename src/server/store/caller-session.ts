import type { Compilable, ExpressionBuilder, SelectQueryBuilder } from "kysely";
import { jsonArrayFrom as postgresJsonArray } from "kysely/helpers/postgres";
import { jsonArrayFrom as sqliteJsonArray } from "kysely/helpers/sqlite";
import type { SessionWithUser } from "../../contract/models.js";
import type { DB } from "./database.js";
import type { DialectName } from "./dialect.js";
import { readPrecompiled } from "./precompiled.js";
import type { Database } from "./schema.js";
import { mapSession, type SessionRow } from "./sessions.js";
import { mapUser } from "./users.js";

/**
 * The caller's session and its user, found by token digest: the one statement get-session runs, and
 * the base every one-statement read route extends with LEFT JOINs of its own rows. The tables are
 * aliased (`callerSession`, `callerUser`) and their columns prefixed (`s_`, `su_`), so a route joins
 * `session`, `user`, `member`... under their own names and keeps its usual column names.
 *
 * It finds a session whatever its state: whether it is still live (expiry, ban) is decided by
 * services/sessions.ts, in one place, which also deletes a dead one.
 */
export function callerSessionQuery(db: DB, tokenHash: string) {
  return db
    .selectFrom("session as callerSession")
    .innerJoin("user as callerUser", "callerUser.id", "callerSession.userId")
    .select([
      "callerSession.id as s_id",
      "callerSession.userId as s_userId",
      "callerSession.expiresAt as s_expiresAt",
      "callerSession.ipAddress as s_ipAddress",
      "callerSession.userAgent as s_userAgent",
      "callerSession.activeOrganizationId as s_activeOrganizationId",
      "callerSession.activeTeamId as s_activeTeamId",
      "callerSession.impersonatedBy as s_impersonatedBy",
      "callerSession.createdAt as s_createdAt",
      "callerSession.updatedAt as s_updatedAt",
      "callerUser.name as su_name",
      "callerUser.email as su_email",
      "callerUser.emailVerified as su_emailVerified",
      "callerUser.image as su_image",
      "callerUser.isAnonymous as su_isAnonymous",
      "callerUser.role as su_role",
      "callerUser.banned as su_banned",
      "callerUser.banReason as su_banReason",
      "callerUser.banExpires as su_banExpires",
      "callerUser.twoFactorEnabled as su_twoFactorEnabled",
      "callerUser.createdAt as su_createdAt",
      "callerUser.updatedAt as su_updatedAt",
    ])
    .where("callerSession.tokenHash", "=", tokenHash);
}

export type CallerSessionRow =
  ReturnType<typeof callerSessionQuery> extends SelectQueryBuilder<any, any, infer R> ? R : never;

function mapCallerSession(row: CallerSessionRow, tokenHash: string, token: string): SessionWithUser {
  const session = mapSession(
    {
      id: row.s_id,
      tokenHash,
      userId: row.s_userId,
      expiresAt: row.s_expiresAt,
      ipAddress: row.s_ipAddress,
      userAgent: row.s_userAgent,
      activeOrganizationId: row.s_activeOrganizationId,
      activeTeamId: row.s_activeTeamId,
      impersonatedBy: row.s_impersonatedBy,
      createdAt: row.s_createdAt,
      updatedAt: row.s_updatedAt,
    },
    token,
  );
  const user = mapUser({
    id: row.s_userId,
    name: row.su_name,
    email: row.su_email,
    emailVerified: row.su_emailVerified,
    image: row.su_image,
    isAnonymous: row.su_isAnonymous,
    role: row.su_role,
    banned: row.su_banned,
    banReason: row.su_banReason,
    banExpires: row.su_banExpires,
    twoFactorEnabled: row.su_twoFactorEnabled,
    createdAt: row.su_createdAt,
    updatedAt: row.su_updatedAt,
  });
  return { session, user };
}

/** The session found for a token (null: none), and the rows a route read with it. */
export interface CallerRows<Row> {
  found: SessionWithUser | null;
  rows: Row[];
}

/** How a route reads its rows along with the caller's session: one statement for both. */
export type CallerSessionRead<Row> = (db: DB, tokenHash: string, token: string) => Promise<CallerRows<Row>>;

/**
 * Runs callerSessionQuery extended by `join` as a precompiled statement of `shape`: the token digest
 * is argument 0, `args` follow. The extension keeps one row per session found: a column of JSON
 * rows (jsonRows), or a LEFT JOIN of at most one row. `rowsOf` takes the route's rows out of them.
 */
export function readWithCallerSession<Joined extends CallerSessionRow, Row>(
  shape: string,
  args: readonly unknown[],
  join: (base: ReturnType<typeof callerSessionQuery>, args: readonly unknown[]) => Compilable<Joined>,
  rowsOf: (joined: Joined[]) => Row[],
): CallerSessionRead<Row> {
  return async (db, tokenHash, token) => {
    const joined = await readPrecompiled(db, `caller.${shape}`, [tokenHash, ...args], ([hash, ...rest]) =>
      join(callerSessionQuery(db, hash as string), rest),
    );
    const first = joined[0];
    if (!first) return { found: null, rows: [] };
    return { found: mapCallerSession(first, tokenHash, token), rows: rowsOf(joined) };
  };
}

/**
 * A correlated subquery's rows as one JSON array column, in its order. Repeating the session's 22
 * columns on every row of a list cost more than the second statement saved (SQLite builds each row
 * object); one JSON text parsed at once costs less than either.
 */
export function jsonRows<O>(dialect: DialectName, subquery: SelectQueryBuilder<any, any, O>) {
  return dialect === "postgres" ? postgresJsonArray(subquery) : sqliteJsonArray(subquery);
}

/** A jsonRows value: JSON text on SQLite, already parsed by node-postgres. */
export function parseJsonRows<Row>(value: unknown): Row[] {
  return typeof value === "string" ? (JSON.parse(value) as Row[]) : ((value ?? []) as Row[]);
}

/** What a list's subquery can name: every table, and the caller's session and user by their aliases. */
type CallerExpressions = ExpressionBuilder<
  Database & { callerSession: Database["session"]; callerUser: Database["user"] },
  "callerSession" | "callerUser"
>;

/**
 * readWithCallerSession for a list: the subquery's rows (correlated to `callerSession`) come back as
 * one JSON column, each turned into a `Row` by `map`.
 */
export function readCallerList<Column, Row>(
  dialect: DialectName,
  shape: string,
  args: readonly unknown[],
  rows: (eb: CallerExpressions, args: readonly unknown[]) => SelectQueryBuilder<any, any, Column>,
  map: (column: Column) => Row,
): CallerSessionRead<Row> {
  return readWithCallerSession(
    shape,
    args,
    (base, rest) => base.select((eb) => jsonRows(dialect, rows(eb as CallerExpressions, rest)).as("rows")),
    ([row]) => parseJsonRows<Column>(row!.rows).map(map),
  );
}

/** The session and user alone: get-session's single round trip. */
export const readCallerSession: CallerSessionRead<never> = readWithCallerSession<CallerSessionRow, never>(
  "only",
  [],
  (base) => base,
  () => [],
);

/** With the caller's session, the user's live sessions, newest first (see listActiveUserSessions). */
export function readCallerSessionList(dialect: DialectName, now: Date): CallerSessionRead<SessionRow> {
  return readCallerList(
    dialect,
    "sessions",
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
        ])
        .whereRef("session.userId", "=", "callerSession.userId")
        .where("session.expiresAt", ">", at as Date)
        .orderBy("session.createdAt", "desc"),
    // The list never reads tokenHash (only the caller's own session needs it): the rows lack it.
    (row) => row as SessionRow,
  );
}
