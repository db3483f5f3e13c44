import { hashProblem, type LegacyFormat, WEAK_FORMATS } from "../../server/crypto/legacy-hashes.js";
import type { DB } from "../../server/store/database.js";
import {
  CREDENTIAL_PROVIDER,
  findLinkedAccounts,
  findMembershipsOfUsers,
  findOrganizationsByIdOrSlug,
  findUsersByIdsOrEmails,
  insertImportedAccounts,
  insertImportedMembers,
  insertImportedOrganization,
  insertImportedUsers,
} from "../../server/store/imports.js";
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
  /** Present from an earlier run (same id and email, or merged with nothing left to add): skipped, which makes a second run change nothing. */
  usersAlreadyImported: number;
  /** With `merge: "link"`: users whose provider accounts and memberships were (or would be) added to the existing user of their email. */
  usersMerged: number;
  conflicts: ImportIssue[];
  refused: ImportIssue[];
  hashFormats: Map<string, number>;
  /** With `refuseWeak`: users written without their salted SHA-256 or MD5 hash (they reset their password). */
  weakHashesLeftOut: number;
  organizationsImported: number;
  organizationsAlreadyImported: number;
  organizationConflicts: ImportIssue[];
  /** Memberships of organizations that were not imported (refused or in conflict). */
  membershipsDropped: number;
}

/**
 * What to do with a user whose email already belongs to a user in the target:
 * - `skip` (the default): report it as a conflict and write nothing;
 * - `link`: add the source's provider accounts and organization memberships to the existing user,
 *   but only when the address is proven on both sides (verified in the target and in the source);
 *   the existing user's password, name and image stay, and the source's password is never added.
 * There is no mode that takes an existing account over.
 */
export type MergeMode = "skip" | "link";
export const MERGE_MODES: readonly MergeMode[] = ["skip", "link"];

export interface ImportOptions {
  /** The source's name: part of the ids derived from its ids. */
  sourceName: string;
  apply: boolean;
  merge?: MergeMode;
  /** Leave salted SHA-256 and MD5 hashes out: their users come over without a password and reset it. */
  refuseWeak?: boolean;
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
    usersMerged: 0,
    conflicts: [],
    refused: [],
    hashFormats: new Map(),
    weakHashesLeftOut: 0,
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
  const seenAccounts = new Map<string, number>();
  /** Source organization id -> the id written, or null when it was not imported. */
  const organizations = new Map<string, string | null>();
  let batch: PendingUser[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    await importBatch(db, batch, report, options.apply, targetReady, options.merge ?? "skip");
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
    const accountKeys = checked.socialAccounts.map((account) => `${account.providerId}\n${account.accountId}`);
    const shared = accountKeys.findIndex((key) => seenAccounts.has(key));
    if (shared >= 0) {
      const account = checked.socialAccounts[shared]!;
      report.refused.push({
        line: record.line,
        email: checked.email,
        reason: `${account.providerId} account ${account.accountId} is also on line ${seenAccounts.get(accountKeys[shared]!)}`,
      });
      continue;
    }
    for (const key of accountKeys) seenAccounts.set(key, record.line);
    seenEmails.set(checked.email, record.line);
    seenIds.set(checked.id, record.line);
    const format = checked.passwordHash ? (hashFormatOf(checked.passwordHash) ?? "unknown") : "none";
    report.hashFormats.set(format, (report.hashFormats.get(format) ?? 0) + 1);
    if (options.refuseWeak && WEAK_FORMATS.has(format as LegacyFormat)) {
      checked.passwordHash = null;
      report.weakHashesLeftOut += 1;
    }
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
  // An unknown form, a malformed text or a cost above HASH_BOUNDS: the row is refused, not the import.
  const hashRefused = user.passwordHash ? hashProblem(user.passwordHash) : null;
  if (hashRefused) return hashRefused;
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
  const present = options.targetReady === false ? [] : await findOrganizationsByIdOrSlug(db, id, organization.slug);
  if (present.some((row) => row.id === id)) {
    report.organizationsAlreadyImported += 1;
    return true;
  }
  if (present.length > 0) {
    report.organizationConflicts.push({ line, reason: `slug "${organization.slug}" belongs to another organization` });
    return false;
  }
  if (options.apply) {
    await insertImportedOrganization(db, {
      id,
      name: organization.name,
      slug: organization.slug,
      logo: organization.logo,
      metadata: organization.metadata,
      createdAt: organization.createdAt ?? now,
    });
  }
  report.organizationsImported += 1;
  return true;
}

/** A user to write: a new one, or (merge "link") one whose accounts and memberships go to an existing user. */
interface Write {
  user: PendingUser;
  /** The existing user's id when merging; the new user is not written then. */
  into?: string;
}

/** Sorts a batch into present, in conflict, to merge and new, then writes the new and merged ones. */
async function importBatch(
  db: DB,
  batch: PendingUser[],
  report: ImportReport,
  apply: boolean,
  targetReady: boolean,
  merge: MergeMode,
): Promise<void> {
  const writes = targetReady ? await sortBatch(db, batch, report, merge) : batch.map((user) => ({ user }));
  const count = (done: Write[]) => {
    for (const write of done) {
      if (write.into) report.usersMerged += 1;
      else report.usersImported += 1;
    }
  };
  if (!apply || writes.length === 0) {
    count(writes);
    return;
  }
  try {
    await db.transaction().execute((trx) => writeBatch(trx, writes));
    count(writes);
  } catch {
    for (const write of writes) {
      try {
        await db.transaction().execute((trx) => writeBatch(trx, [write]));
        count([write]);
      } catch (error) {
        report.conflicts.push({ line: write.user.line, email: write.user.email, reason: (error as Error).message });
      }
    }
  }
}

/**
 * The batch's users that are to be written (new, or merged into the existing user of their email);
 * the others are counted as present or in conflict. A merge keeps only what the existing user lacks,
 * so a second run finds nothing left and counts the user as already imported.
 */
async function sortBatch(db: DB, batch: PendingUser[], report: ImportReport, merge: MergeMode): Promise<Write[]> {
  const ids = batch.map((user) => user.id);
  const emails = batch.map((user) => user.email);
  const present = await findUsersByIdsOrEmails(db, ids, emails);
  const byId = new Map(present.map((row) => [row.id, row.email]));
  const byEmail = new Map(present.map((row) => [row.email.toLowerCase(), { id: row.id, verified: row.emailVerified }]));
  const socialIds = batch.flatMap((user) => user.socialAccounts.map((account) => account.accountId));
  const providers = [...new Set(batch.flatMap((user) => user.socialAccounts.map((account) => account.providerId)))];
  // Pairs are matched below.
  const linked = await findLinkedAccounts(db, providers, socialIds);
  const linkedTo = new Map(linked.map((row) => [`${row.providerId}\n${row.accountId}`, row.userId]));
  const mergeTargets = [...byEmail.values()].map((owner) => owner.id);
  const memberships = merge === "link" ? await findMembershipsOfUsers(db, mergeTargets) : [];
  const isMember = new Set(memberships.map((row) => `${row.organizationId}\n${row.userId}`));

  const writes: Write[] = [];
  for (const user of batch) {
    const emailOwner = byEmail.get(user.email);
    if (byId.get(user.id)?.toLowerCase() === user.email) {
      report.usersAlreadyImported += 1;
      continue;
    }
    const conflict = (reason: string) => {
      report.conflicts.push({ line: user.line, email: user.email, reason });
    };
    const owner = emailOwner?.id ?? user.id;
    const taken = user.socialAccounts.find((account) => {
      const holder = linkedTo.get(`${account.providerId}\n${account.accountId}`);
      return holder !== undefined && holder !== owner;
    });
    if (emailOwner !== undefined) {
      const already = `email already present (user ${emailOwner.id})`;
      if (merge === "skip") {
        conflict(already);
        continue;
      }
      if (!emailOwner.verified || !user.emailVerified) {
        const where = emailOwner.verified ? "in the source" : "here";
        conflict(`${already}; not merged: the address is not verified ${where}`);
        continue;
      }
      if (taken) {
        conflict(`${already}; not merged: ${taken.providerId} account ${taken.accountId} is linked to another user`);
        continue;
      }
      const missing: PendingUser = {
        ...user,
        passwordHash: null,
        socialAccounts: user.socialAccounts.filter(
          (account) => !linkedTo.has(`${account.providerId}\n${account.accountId}`),
        ),
        memberships: user.memberships.filter(
          (membership) => !isMember.has(`${membership.organizationId}\n${emailOwner.id}`),
        ),
      };
      if (missing.socialAccounts.length === 0 && missing.memberships.length === 0) {
        report.usersAlreadyImported += 1;
        continue;
      }
      writes.push({ user: missing, into: emailOwner.id });
      continue;
    }
    if (byId.has(user.id)) {
      conflict(`id ${user.id} belongs to another user`);
      continue;
    }
    if (taken) {
      conflict(`${taken.providerId} account ${taken.accountId} is linked to another user`);
      continue;
    }
    writes.push({ user });
  }
  return writes;
}

/** Every row of these users (a merged one's accounts and memberships only), a few multi-row inserts per table. */
async function writeBatch(db: DB, writes: Write[]): Promise<void> {
  const users_ = writes
    .filter((write) => !write.into)
    .map(({ user }) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    }));
  const accounts = writes.flatMap(({ user, into = user.id }) => [
    ...(user.passwordHash
      ? [{ providerId: CREDENTIAL_PROVIDER, accountId: into, password: user.passwordHash as string | null, user, into }]
      : []),
    ...user.socialAccounts.map((account) => ({ ...account, password: null, user, into })),
  ]);
  const members = writes.flatMap(({ user, into = user.id }) =>
    user.memberships.map((membership) => ({ ...membership, into })),
  );
  for (const rows of chunks(users_)) await insertImportedUsers(db, rows);
  for (const rows of chunks(accounts)) {
    await insertImportedAccounts(
      db,
      rows.map(({ providerId, accountId, password, user, into }) => ({
        accountId,
        providerId,
        userId: into,
        password,
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      })),
    );
  }
  for (const rows of chunks(members)) {
    await insertImportedMembers(
      db,
      rows.map(({ organizationId, role, createdAt, into }) => ({ organizationId, userId: into, role, createdAt })),
    );
  }
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
    out.push(rows.slice(start, start + ROWS_PER_INSERT));
  return out;
}
