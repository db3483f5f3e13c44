import type { User } from "../../contract/models.js";
import { copyFields, NO_FIELDS, storedValues, type TableFields } from "./additional-fields.js";
import type { DB } from "./db.js";
import type { UserRow } from "./rows.js";
import { type TimeOf, timeOrNull, toBool, toDate, toDateOrNull, type WithTimes } from "./values.js";

/** Role of a user row written before roles existed, or created without one. */
export const DEFAULT_USER_ROLE = "user";

export type { UserRow };

/** The wire User; with `fields`, also the app's own returned fields (read from the row's columns). */
export function mapUser(row: UserRow, time?: TimeOf<Date>, fields?: TableFields): User;
export function mapUser<T>(row: UserRow, time: TimeOf<T>, fields?: TableFields): WithTimes<User, T>;
export function mapUser(
  row: UserRow,
  time: TimeOf<unknown> = toDate,
  fields: TableFields = NO_FIELDS,
): WithTimes<User, unknown> {
  const user = {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: toBool(row.emailVerified),
    image: row.image,
    isAnonymous: toBool(row.isAnonymous),
    role: row.role ?? DEFAULT_USER_ROLE,
    banned: toBool(row.banned),
    banReason: row.banReason,
    banExpires: timeOrNull(time, row.banExpires),
    twoFactorEnabled: toBool(row.twoFactorEnabled),
    createdAt: time(row.createdAt),
    updatedAt: time(row.updatedAt),
  };
  if (fields.returned.length > 0) copyFields(user, row as unknown as Record<string, unknown>, fields, time);
  return user;
}

export async function findUserById(db: DB, id: string, fields?: TableFields): Promise<User | null> {
  const row = await db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? mapUser(row, toDate, fields) : null;
}

export async function findUserByEmail(db: DB, email: string): Promise<User | null> {
  const row = await db
    .selectFrom("user")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
  return row ? mapUser(row) : null;
}

/** The user with their credential password hash, in one join: sign-in's only read. */
export async function findUserWithPasswordByEmail(
  db: DB,
  email: string,
  fields?: TableFields,
): Promise<{ user: User; passwordHash: string | null; accountId: string | null } | null> {
  const row = await db
    .selectFrom("user")
    .leftJoin("account", (join) =>
      join.onRef("account.userId", "=", "user.id").on("account.providerId", "=", "credential"),
    )
    .selectAll("user")
    .select(["account.password as passwordHash", "account.id as credentialAccountId"])
    // By lower(email): the unique index is on that expression (0001), and plain email has none.
    .where((eb) => eb(eb.fn("lower", ["user.email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
  if (!row) return null;
  const { passwordHash, credentialAccountId, ...user } = row;
  return {
    user: mapUser(user, toDate, fields),
    passwordHash: passwordHash ?? null,
    accountId: credentialAccountId ?? null,
  };
}

export interface NewUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  isAnonymous?: boolean;
  /** options.admin.defaultRole for sign-ups; an admin may choose another. */
  role: string;
  now: Date;
  /** The app's own fields, checked (services/additional-fields.ts). */
  fields?: { spec: TableFields; values: Readonly<Record<string, unknown>> };
}

export async function insertUser(db: DB, user: NewUser): Promise<User> {
  const row = await db
    .insertInto("user")
    .values({
      id: user.id,
      name: user.name,
      email: user.email.toLowerCase(),
      emailVerified: user.emailVerified,
      image: user.image,
      isAnonymous: user.isAnonymous ?? false,
      role: user.role,
      banned: false,
      createdAt: user.now,
      updatedAt: user.now,
      ...(user.fields ? storedValues(user.fields.spec, user.fields.values) : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapUser(row, toDate, user.fields?.spec);
}

/** The user columns an update may change. */
export interface UserPatch {
  name?: string;
  image?: string | null;
  emailVerified?: boolean;
  email?: string;
  role?: string;
  banned?: boolean;
  banReason?: string | null;
  banExpires?: Date | null;
}

export async function updateUserProfile(
  db: DB,
  id: string,
  patch: UserPatch,
  now: Date,
  fields?: { spec: TableFields; values: Readonly<Record<string, unknown>> },
): Promise<User | null> {
  const row = await db
    .updateTable("user")
    .set({
      ...patch,
      ...(patch.email ? { email: patch.email.toLowerCase() } : {}),
      ...(fields ? storedValues(fields.spec, fields.values) : {}),
      updatedAt: now,
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row ? mapUser(row, toDate, fields?.spec) : null;
}

/** Whether the user may open a session now: a ban that has run out is lifted on the way. */
export async function findBanState(
  db: DB,
  userId: string,
): Promise<{ banned: boolean; banReason: string | null; banExpires: Date | null; twoFactorEnabled: boolean } | null> {
  const row = await db
    .selectFrom("user")
    .select(["banned", "banReason", "banExpires", "twoFactorEnabled"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    banned: toBool(row.banned),
    banReason: row.banReason,
    banExpires: toDateOrNull(row.banExpires),
    twoFactorEnabled: toBool(row.twoFactorEnabled),
  };
}

/** Ends a ban that has run out; answers the user as they now are (for user.updated). */
export async function liftBan(db: DB, userId: string, now: Date): Promise<User | null> {
  const row = await db
    .updateTable("user")
    .set({ banned: false, banReason: null, banExpires: null, updatedAt: now })
    .where("id", "=", userId)
    .returningAll()
    .executeTakeFirst();
  return row ? mapUser(row) : null;
}

/**
 * Moves the user from `fromEmail` to `toEmail` (and marks it verified) only if the user still has
 * `fromEmail`, so a stale link cannot undo a later change. A taken `toEmail` fails on the unique index.
 */
export async function moveUserEmail(
  db: DB,
  id: string,
  change: { fromEmail: string; toEmail: string; verified: boolean },
  now: Date,
): Promise<User | null> {
  const row = await db
    .updateTable("user")
    .set({ email: change.toEmail.toLowerCase(), emailVerified: change.verified, updatedAt: now })
    .where("id", "=", id)
    .where("email", "=", change.fromEmail.toLowerCase())
    .returningAll()
    .executeTakeFirst();
  return row ? mapUser(row) : null;
}
