import { newId } from "../../server/crypto/random.js";
import { CREDENTIAL_PROVIDER } from "../../server/store/accounts.js";
import type { DB } from "../../server/store/database.js";
import {
  hashFormatOf,
  type ImportOrganization,
  type ImportSource,
  type ImportUser,
  isValidEmail,
  targetId,
} from "./records.js";

/** A row that was not written, and why (its line in the source). */
export interface ImportIssue {
  line: number;
  email?: string;
  reason: string;
}

export interface ImportReport {
  applied: boolean;
  /** User rows of the source, refused ones included. */
  usersRead: number;
  /** Written, or (dry run) to be written. */
  usersImported: number;
  /** Present from an earlier run (same id and email): skipped, which makes a second run change nothing. */
  usersAlreadyImported: number;
  conflicts: ImportIssue[];
  refused: ImportIssue[];
  hashFormats: Map<string, number>;
  organizationsImported: number;
  organizationsAlreadyImported: number;
  organizationConflicts: ImportIssue[];
  /** Memberships of organizations that were not imported (refused or in conflict). */
  membershipsDropped: number;
}

export interface ImportOptions {
  /** The source's name: part of the ids derived from its ids. */
  sourceName: string;
  apply: boolean;
  /** Users per transaction; each user's rows are all in one. */
  batchSize?: number;
  /** False when the target has no tables yet (a dry run before migrating): nothing is present. */
  targetReady?: boolean;
  now?: () => Date;
  progress?(report: ImportReport): void;
}

/** A user checked and ready to be written. */
interface PendingUser {
  line: number;
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: Date;
  updatedAt: Date;
  passwordHash: string | null;
  socialAccounts: { providerId: string; accountId: string }[];
  memberships: { organizationId: string; role: string; createdAt: Date }[];
}

/** Most rows a single insert statement carries: well below both databases' bound-parameter limits. */
const ROWS_PER_INSERT = 500;

/**
 * Reads a source and writes what it holds (with `apply`), or only says what it would write. Each
 * batch of users is one transaction; should it fail (a row written meanwhile by someone else), its
 * users are written again one per transaction, so one bad user never takes others with it and none
 * is half-written.
 */
export async function runImport(db: DB, source: ImportSource, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = {
    applied: options.apply,
    usersRead: 0,
    usersImported: 0,
    usersAlreadyImported: 0,
    conflicts: [],
    refused: [],
    hashFormats: new Map(),
    organizationsImported: 0,
    organizationsAlreadyImported: 0,
    organizationConflicts: [],
    membershipsDropped: 0,
  };
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 500;
  const targetReady = options.targetReady ?? true;
  const seenEmails = new Map<string, number>();
  const seenIds = new Map<string, number>();
  /** Source organization id -> the id written, or null when it was not imported. */
  const organizations = new Map<string, string | null>();
  let batch: PendingUser[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    await importBatch(db, batch, report, options.apply, targetReady);
    batch = [];
    options.progress?.(report);
  };

  for await (const record of source.records()) {
    if (record.kind === "refused") {
      report.usersRead += 1;
      report.refused.push({ line: record.line, reason: record.reason });
      continue;
    }
    if (record.kind === "organization") {
      const id = targetId(options.sourceName, record.organization.sourceId);
      const written = await importOrganization(db, id, record.organization, record.line, report, options, now());
      organizations.set(record.organization.sourceId, written ? id : null);
      continue;
    }
    report.usersRead += 1;
    const checked = checkUser(record.user, record.line, options.sourceName, now());
    if (typeof checked === "string") {
      report.refused.push({ line: record.line, email: record.user.email ?? undefined, reason: checked });
      continue;
    }
    const earlier = seenEmails.get(checked.email) ?? seenIds.get(checked.id);
    if (earlier !== undefined) {
      report.refused.push({ line: record.line, email: checked.email, reason: `duplicate of line ${earlier}` });
      continue;
    }
    seenEmails.set(checked.email, record.line);
    seenIds.set(checked.id, record.line);
    const format = checked.passwordHash ? (hashFormatOf(checked.passwordHash) ?? "unknown") : "none";
    report.hashFormats.set(format, (report.hashFormats.get(format) ?? 0) + 1);
    checked.memberships = record.user.memberships.flatMap((membership) => {
      const organizationId = organizations.get(membership.organizationId);
      if (!organizationId) {
        report.membershipsDropped += 1;
        return [];
      }
      return [{ organizationId, role: membership.role, createdAt: membership.createdAt ?? checked.createdAt }];
    });
    batch.push(checked);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return report;
}

/** The user as written, or why it is refused. */
function checkUser(user: ImportUser, line: number, sourceName: string, now: Date): PendingUser | string {
  const email = user.email?.trim().toLowerCase() ?? "";
  if (user.sourceId.trim() === "") return "no id";
  if (email === "") return "no email";
  if (!isValidEmail(email)) return "invalid email";
  if (user.passwordHash && !hashFormatOf(user.passwordHash)) return "unknown hash format";
  const createdAt = user.createdAt ?? now;
  return {
    line,
    id: targetId(sourceName, user.sourceId),
    email,
    name: user.name?.trim() || email.split("@")[0]!,
    emailVerified: user.emailVerified,
    image: user.image,
    createdAt,
    updatedAt: user.updatedAt ?? createdAt,
    passwordHash: user.passwordHash,
    socialAccounts: user.socialAccounts,
    memberships: [],
  };
}

/** Whether the organization is (or, in a dry run, would be) in the target with this id. */
async function importOrganization(
  db: DB,
  id: string,
  organization: ImportOrganization,
  line: number,
  report: ImportReport,
  options: ImportOptions,
  now: Date,
): Promise<boolean> {
  const present =
    options.targetReady === false
      ? []
      : await db
          .selectFrom("organization")
          .select(["id", "slug"])
          .where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", organization.slug)]))
          .execute();
  if (present.some((row) => row.id === id)) {
    report.organizationsAlreadyImported += 1;
    return true;
  }
  if (present.length > 0) {
    report.organizationConflicts.push({ line, reason: `slug "${organization.slug}" belongs to another organization` });
    return false;
  }
  if (options.apply) {
    await db
      .insertInto("organization")
      .values({
        id,
        name: organization.name,
        slug: organization.slug,
        logo: organization.logo,
        metadata: organization.metadata,
        createdAt: organization.createdAt ?? now,
      })
      .execute();
  }
  report.organizationsImported += 1;
  return true;
}

/** Sorts a batch into present, in conflict and new, then writes the new ones. */
async function importBatch(
  db: DB,
  batch: PendingUser[],
  report: ImportReport,
  apply: boolean,
  targetReady: boolean,
): Promise<void> {
  const fresh = targetReady ? await withoutPresent(db, batch, report) : batch;
  if (!apply || fresh.length === 0) {
    report.usersImported += fresh.length;
    return;
  }
  try {
    await db.transaction().execute((trx) => writeUsers(trx, fresh));
    report.usersImported += fresh.length;
  } catch {
    for (const user of fresh) {
      try {
        await db.transaction().execute((trx) => writeUsers(trx, [user]));
        report.usersImported += 1;
      } catch (error) {
        report.conflicts.push({ line: user.line, email: user.email, reason: (error as Error).message });
      }
    }
  }
}

/** The batch's users that are not in the target yet; the others are counted as present or in conflict. */
async function withoutPresent(db: DB, batch: PendingUser[], report: ImportReport): Promise<PendingUser[]> {
  const ids = batch.map((user) => user.id);
  const emails = batch.map((user) => user.email);
  const present = await db
    .selectFrom("user")
    .select(["id", "email"])
    .where((eb) => eb.or([eb("id", "in", ids), eb("email", "in", emails)]))
    .execute();
  const byId = new Map(present.map((row) => [row.id, row.email]));
  const byEmail = new Map(present.map((row) => [row.email.toLowerCase(), row.id]));
  const socialIds = batch.flatMap((user) => user.socialAccounts.map((account) => account.accountId));
  const linked =
    socialIds.length === 0
      ? []
      : await db
          .selectFrom("account")
          .select(["providerId", "accountId", "userId"])
          .where("accountId", "in", socialIds)
          .execute();
  const linkedTo = new Map(linked.map((row) => [`${row.providerId}\n${row.accountId}`, row.userId]));

  return batch.filter((user) => {
    const emailOwner = byEmail.get(user.email);
    if (byId.get(user.id)?.toLowerCase() === user.email) {
      report.usersAlreadyImported += 1;
      return false;
    }
    const conflict = (reason: string) => {
      report.conflicts.push({ line: user.line, email: user.email, reason });
      return false;
    };
    if (emailOwner !== undefined) return conflict(`email already present (user ${emailOwner})`);
    if (byId.has(user.id)) return conflict(`id ${user.id} belongs to another user`);
    const taken = user.socialAccounts.find((account) => {
      const owner = linkedTo.get(`${account.providerId}\n${account.accountId}`);
      return owner !== undefined && owner !== user.id;
    });
    if (taken) return conflict(`${taken.providerId} account ${taken.accountId} is linked to another user`);
    return true;
  });
}

/** Every row of these users, a few multi-row inserts per table. */
async function writeUsers(db: DB, users: PendingUser[]): Promise<void> {
  const users_ = users.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    image: user.image,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  }));
  const accounts = users.flatMap((user) => [
    ...(user.passwordHash
      ? [{ providerId: CREDENTIAL_PROVIDER, accountId: user.id, password: user.passwordHash as string | null, user }]
      : []),
    ...user.socialAccounts.map((account) => ({ ...account, password: null, user })),
  ]);
  const members = users.flatMap((user) => user.memberships.map((membership) => ({ ...membership, user })));
  for (const rows of chunks(users_)) await db.insertInto("user").values(rows).execute();
  for (const rows of chunks(accounts)) {
    await db
      .insertInto("account")
      .values(
        rows.map(({ providerId, accountId, password, user }) => ({
          id: newId(),
          accountId,
          providerId,
          userId: user.id,
          password,
          createdAt: user.createdAt,
          updatedAt: user.updatedAt,
        })),
      )
      .execute();
  }
  for (const rows of chunks(members)) {
    await db
      .insertInto("member")
      .values(
        rows.map(({ organizationId, role, createdAt, user }) => ({
          id: newId(),
          organizationId,
          userId: user.id,
          role,
          createdAt,
        })),
      )
      .execute();
  }
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
    out.push(rows.slice(start, start + ROWS_PER_INSERT));
  return out;
}
