import { type Compilable, type ExpressionBuilder, type SelectQueryBuilder, sql } from "kysely";
import { jsonArrayFrom as postgresJsonArray, jsonObjectFrom as postgresJsonObject } from "kysely/helpers/postgres";
import { jsonArrayFrom as sqliteJsonArray, jsonObjectFrom as sqliteJsonObject } from "kysely/helpers/sqlite";
import type { AdditionalFields } from "../additional-fields.js";
import type { DB } from "../db.js";
import type { DialectName } from "../dialect.js";
import type { SessionRow, UserRow } from "../rows.js";
import type { Database } from "../schema.js";
import { readPrecompiled } from "./precompiled.js";

/**
 * The caller's session (aliased `callerSession`, columns prefixed `s_`) and its user as one JSON
 * column (`su`, a subquery: faster than a join on large SQLite databases), found by token digest:
 * the base every hot read route extends. Liveness (expiry, ban) is decided in services/sessions.ts.
 * The app's own returned fields are columns of the same statement: session ones prefixed `s_`,
 * user ones inside `su` under their names.
 */
export function callerSessionQuery(
  db: DB,
  dialect: DialectName,
  tokenHash: string,
  fields: AdditionalFields,
  rules = false,
) {
  return db
    .selectFrom("session as callerSession")
    .select((eb) => [
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
      ...fields.session.returned.map((f) => sql.ref<unknown>(`callerSession.${f.name}`).as(`s_${f.name}`)),
      jsonObject(
        dialect,
        eb
          .selectFrom("user")
          .select([
            "user.name",
            "user.email",
            "user.emailVerified",
            "user.image",
            "user.isAnonymous",
            "user.role",
            "user.banned",
            "user.banReason",
            "user.banExpires",
            "user.twoFactorEnabled",
            "user.createdAt",
            "user.updatedAt",
            ...fields.user.returned.map((f) => sql.ref<unknown>(`user.${f.name}`).as(f.name)),
          ])
          .whereRef("user.id", "=", "callerSession.userId"),
      ).as("su"),
    ])
    .$if(rules, (query) =>
      query.select((eb) => [
        "callerSession.signInMethod as s_signInMethod",
        "callerSession.signInProviderId as s_signInProviderId",
        "callerSession.lastActiveAt as s_lastActiveAt",
        jsonRows(
          dialect,
          eb
            .selectFrom("member as ruledMember")
            .innerJoin("organizationPolicy as ruled", "ruled.organizationId", "ruledMember.organizationId")
            .innerJoin("organization as ruledOrganization", "ruledOrganization.id", "ruledMember.organizationId")
            .select([
              "ruled.organizationId as organizationId",
              "ruledOrganization.slug as slug",
              "ruled.rules as rules",
            ])
            .whereRef("ruledMember.userId", "=", "callerSession.userId"),
        ).as("s_policies"),
      ]),
    )
    .where("callerSession.tokenHash", "=", tokenHash);
}

/** An organization's policy row as the caller's statement reads it: rules as JSON text. */
export interface CallerPolicyRow {
  organizationId: string;
  slug: string;
  rules: string;
}

/**
 * What organization policy needs of the caller (read only for routes that act in an organization):
 * how the session was signed in, when it last acted, and the policies of the caller's organizations.
 */
export interface CallerRulesRows {
  signInMethod: string | null;
  /** The SSO connection that signed the session in. */
  signInProviderId: string | null;
  lastActiveAt: Date | string | null;
  policies: CallerPolicyRow[];
}

export type CallerSessionRow =
  ReturnType<typeof callerSessionQuery> extends SelectQueryBuilder<any, any, infer R> ? R : never;

/** The caller's session and user rows as read (user: JSON, so booleans may be 0/1 and dates text). */
export interface CallerSessionRows {
  session: SessionRow;
  user: UserRow;
  /** Read only when asked for (readWithCallerSession's `rules`). */
  rules?: CallerRulesRows;
}

/** The caller's rows for a token (null: no session) and the rows a route read with them. */
export interface CallerRows<Rows> {
  caller: CallerSessionRows | null;
  /** Undefined when no session was found. */
  rows: Rows | undefined;
}

/** The session and user rows inside a combined row (null: its user is gone). */
function callerRows(row: CallerSessionRow, tokenHash: string, fields: AdditionalFields): CallerSessionRows | null {
  const user = parseJsonColumn<Omit<UserRow, "id">>(row.su);
  // The user row goes with its sessions (ON DELETE CASCADE); none means none.
  if (!user) return null;
  const rows: CallerSessionRows = {
    session: {
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
    // Field by field: a spread of the parsed object is far slower on the hot path (bench/README.md).
    user: {
      id: row.s_userId,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      isAnonymous: user.isAnonymous,
      role: user.role,
      banned: user.banned,
      banReason: user.banReason,
      banExpires: user.banExpires,
      twoFactorEnabled: user.twoFactorEnabled,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
  };
  if ("s_policies" in row) {
    rows.rules = {
      signInMethod: (row.s_signInMethod as string | null | undefined) ?? null,
      signInProviderId: (row.s_signInProviderId as string | null | undefined) ?? null,
      lastActiveAt: (row.s_lastActiveAt as Date | string | null | undefined) ?? null,
      policies: parseJsonRows<CallerPolicyRow>(row.s_policies),
    };
  }
  // Raw column values; mapSession and mapUser decode them by type.
  for (const f of fields.session.returned) {
    (rows.session as Record<string, unknown>)[f.name] = (row as Record<string, unknown>)[`s_${f.name}`];
  }
  for (const f of fields.user.returned) {
    (rows.user as Record<string, unknown>)[f.name] = (user as Record<string, unknown>)[f.name];
  }
  return rows;
}

/** How a route reads its rows along with the caller's session: one statement for both. */
export type CallerSessionRead<Rows> = (
  db: DB,
  dialect: DialectName,
  tokenHash: string,
  fields: AdditionalFields,
  rules?: boolean,
) => Promise<CallerRows<Rows>>;

/**
 * Runs callerSessionQuery extended by `join` as a precompiled statement of `shape`: the token digest
 * is argument 0, `args` follow. The extension keeps one row per session found: a column of JSON
 * rows (jsonRows), or a LEFT JOIN of at most one row. `rowsOf` takes the route's rows out of them.
 * Statements of different additional fields are compiled apart (fields.key, "" without any), as
 * are those that also read the caller's organization rules (`rules`: routes acting in an organization).
 */
export function readWithCallerSession<Joined extends CallerSessionRow, Rows>(
  shape: string,
  args: readonly unknown[],
  join: (base: ReturnType<typeof callerSessionQuery>, args: readonly unknown[]) => Compilable<Joined>,
  rowsOf: (joined: Joined[]) => Rows,
): CallerSessionRead<Rows> {
  // The statement's names, made once per fields key: joined per request they cost a build and a flatten each.
  let namesKey: string | null = null;
  let plain: string | undefined;
  let withRules: string | undefined;
  return async (db, dialect, tokenHash, fields, rules = false) => {
    if (fields.key !== namesKey) {
      namesKey = fields.key;
      plain = withRules = undefined;
    }
    let name = rules ? withRules : plain;
    if (name === undefined) {
      name = `caller.${rules ? `${shape}+rules` : shape}${namesKey}`;
      if (rules) withRules = name;
      else plain = name;
    }
    const joined = await readPrecompiled(db, name, [tokenHash, ...args], ([hash, ...rest]) =>
      join(callerSessionQuery(db, dialect, hash as string, fields, rules), rest),
    );
    const first = joined[0];
    const caller = first ? callerRows(first, tokenHash, fields) : null;
    return caller ? { caller, rows: rowsOf(joined) } : { caller: null, rows: undefined };
  };
}

/**
 * A correlated subquery's rows as one JSON array column, in its order. Repeating the session's
 * columns on every row of a list cost more than the second statement saved (SQLite builds each row
 * object); one JSON text parsed at once costs less than either.
 */
export function jsonRows<O>(dialect: DialectName, subquery: SelectQueryBuilder<any, any, O>) {
  return dialect === "postgres" ? postgresJsonArray(subquery) : sqliteJsonArray(subquery);
}

/** A subquery's one row as one JSON object column (null when it finds none). */
function jsonObject<O>(dialect: DialectName, subquery: SelectQueryBuilder<any, any, O>) {
  return dialect === "postgres" ? postgresJsonObject(subquery) : sqliteJsonObject(subquery);
}

/** A jsonObject or jsonRows value: JSON text on SQLite, already parsed by node-postgres; null when none. */
function parseJsonColumn<T>(value: unknown): T | null {
  return typeof value === "string" ? (JSON.parse(value) as T) : ((value ?? null) as T | null);
}

/** A jsonRows value as its rows. */
export function parseJsonRows<Row>(value: unknown): Row[] {
  return parseJsonColumn<Row[]>(value) ?? [];
}

/** What a list's subquery can name: every table, and the caller's session by its alias. */
type CallerExpressions = ExpressionBuilder<Database & { callerSession: Database["session"] }, "callerSession">;

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
): CallerSessionRead<Row[]> {
  return readWithCallerSession(
    shape,
    args,
    (base, rest) => base.select((eb) => jsonRows(dialect, rows(eb as CallerExpressions, rest)).as("rows")),
    ([row]) => parseJsonRows<Column>(row!.rows).map(map),
  );
}
