import {
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
  UpdateQueryNode,
} from "kysely";
import type { AuditAction, AuditActorType, AuditOutcome, AuditTrailEntry } from "../../contract/audit.js";
import { type AuditScope, type AuthContext, requestContext } from "../context.js";
import { newId } from "../crypto/random.js";
import type { DB } from "../store/database.js";
import type { WebhookEvent } from "../webhooks/events.js";
import type { ChangeFacts } from "../webhooks/outbox.js";
import { type NewAuditEntry, writeAuditEntry } from "./entry.store.js";
import { pruneAuditTrail } from "./trail.store.js";

/**
 * The context an audited request (or server call) runs in: the instance's, carrying the request's
 * scope, with the webhook outbox's view that tells the scope of every change it is handed. Handed
 * down, not found: the scope was once kept in an AsyncLocalStorage, whose promise hooks cost every
 * promise of every request (reads included) on Node 20 and 22, and V8 its promise fast paths for
 * the rest of the process.
 */
export function auditedContext(ctx: AuthContext, scope: AuditScope): AuthContext {
  const audited: AuthContext = requestContext(ctx, {
    audit: scope,
    webhooks: ctx.webhooks.hearing({
      pending: () => !scope.written,
      record: (db, event, data) => auditChange(audited, db, factsOfEvent(event, data)),
      merging: (db, facts) => (scope.written ? undefined : EntryInChangeStatement.on(db, audited, scope, facts)),
    }),
  });
  return audited;
}

/**
 * The request's entry written by its change's own statement (audit/entry.store.ts: on PostgreSQL
 * merged into it, on SQLite inserted beside it on the held connection), for a change of one
 * statement outside any transaction. The first insert,
 * update or delete that returns its rows carries the entry, built with the facts the caller gave
 * (they stand in for what its rows will tell, which the statement cannot wait for); the entry is
 * written only if that statement changed a row, and the scope is marked written only then. Saves
 * PostgreSQL a transaction's two round trips, and SQLite a Kysely transaction held open across
 * awaits (bench/README.md, "Audited writes in one statement", "SQLite's entry with its change").
 */
class EntryInChangeStatement implements KyselyPlugin {
  /** The databases handed out, each with its plugin: see auditChange. */
  static readonly #handedOut = new WeakMap<DB, EntryInChangeStatement>();

  /** `db` with the plugin, for one change. */
  static on(db: DB, ctx: AuthContext, scope: AuditScope, facts: ChangeFacts): DB {
    const plugin = new EntryInChangeStatement(ctx, scope, facts);
    const merging = db.withPlugin(plugin);
    EntryInChangeStatement.#handedOut.set(merging, plugin);
    return merging;
  }

  /**
   * Whether `db` was handed out for a change that has written nothing without the entry: its record
   * may then go on its own (the change wrote no row, as an update with nothing to set).
   */
  static changedNothingElse(db: DB): boolean {
    const plugin = EntryInChangeStatement.#handedOut.get(db);
    return plugin !== undefined && !plugin.#wroteWithoutEntry;
  }

  readonly #ctx: AuthContext;
  readonly #scope: AuditScope;
  readonly #facts: ChangeFacts;
  /** The statement carrying the entry, until its answer is seen. */
  #carrier: QueryId | undefined;
  /** A statement that may have written ran while the entry was still to be written, without it. */
  #wroteWithoutEntry = false;

  private constructor(ctx: AuthContext, scope: AuditScope, facts: ChangeFacts) {
    this.#ctx = ctx;
    this.#scope = scope;
    this.#facts = facts;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.#scope.written) return node;
    if (this.#carrier || !returnsRows(node)) {
      // Another statement while the carrier's answer is out (it failed, or runs beside this one).
      if (!SelectQueryNode.is(node)) this.#wroteWithoutEntry = true;
      return node;
    }
    noteAudit(this.#ctx, this.#facts);
    this.#carrier = queryId;
    return writeAuditEntry(entryOf(this.#ctx, this.#scope, "success"), { statement: node });
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (queryId === this.#carrier) {
      this.#carrier = undefined;
      if (result.rows.length > 0) this.#scope.written = true;
    }
    return result;
  }
}

function returnsRows(node: RootOperationNode): boolean {
  return (
    (InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node)) && node.returning !== undefined
  );
}

/** What a change tells its entry (ChangeFacts), and details of its own. */
type AuditFacts = ChangeFacts & { details?: Record<string, unknown> };

/** What a service learned about the request's entry: filled in where still unknown, details merged. */
export function noteAudit(ctx: AuthContext, facts: AuditFacts): void {
  const scope = ctx.audit;
  if (!scope) return;
  if (facts.subjectId && !scope.subjectId) scope.subjectId = facts.subjectId;
  if (facts.organizationId && !scope.organizationId) scope.organizationId = facts.organizationId;
  if (facts.details) Object.assign(scope.details, facts.details);
}

/** A sign-in that ended at the second-factor gate: its entry says `challenged`, naming the user. */
export function noteAuditChallenge(ctx: AuthContext, userId: string): void {
  if (!ctx.audit) return;
  ctx.audit.challenged = true;
  noteAudit(ctx, { subjectId: userId });
}

const isAccountAction = (action: AuditAction) => action.startsWith("user.") || action.startsWith("session.");

function entryOf(ctx: AuthContext, scope: AuditScope, outcome: AuditOutcome): NewAuditEntry {
  const subjectId = scope.subjectId ?? (isAccountAction(scope.action) ? scope.sessionUserId : null);
  // Without a session the account acted on its own behalf (a sign-in, a reset by mailed token); a
  // refusal without one proved nothing, so whoever tried stays unnamed.
  const actorId = scope.actorId ?? (scope.actorType === "user" && outcome !== "failure" ? subjectId : null);
  const details = Object.keys(scope.details).length > 0 ? JSON.stringify(scope.details) : null;
  return {
    id: newId(),
    createdAt: ctx.now(),
    action: scope.action,
    outcome,
    actorType: scope.actorType,
    actorId,
    subjectId,
    organizationId: scope.organizationId ?? scope.sessionOrganizationId,
    ipAddress: scope.ipAddress,
    userAgent: scope.userAgent,
    requestId: scope.requestId,
    details,
  };
}

/**
 * The one way an entry is written: inside `trx`, a transaction (the change's own, or for an entry that
 * goes with no change, one opened for it), unsealed: it commits or rolls back with whatever else `trx`
 * holds, and the sealer (audit/sealer.service.ts) numbers, chains and streams it once committed.
 */
async function append(ctx: AuthContext, trx: DB, entry: NewAuditEntry): Promise<void> {
  if (!trx.isTransaction) throw new Error("an audit entry is written only inside a transaction");
  await writeAuditEntry(entry, { transaction: trx, dialect: ctx.dialect, db: ctx.db });
}

/** An entry that goes with no change (a refusal, a challenge): in a transaction of its own. */
function appendAlone(ctx: AuthContext, entry: NewAuditEntry): Promise<void> {
  return ctx.db.transaction().execute((trx) => append(ctx, trx, entry));
}

/**
 * Writes the request's entry as a success inside the change's transaction `trx`, once per request:
 * call it where the change is made (the webhook outbox calls it for every event it is handed).
 */
export async function auditChange(ctx: AuthContext, trx: DB, facts: AuditFacts = {}): Promise<void> {
  const scope = ctx.audit;
  if (!scope || scope.written) return;
  noteAudit(ctx, facts);
  scope.written = true;
  const entry = entryOf(ctx, scope, "success");
  if (trx.isTransaction) return append(ctx, trx, entry);
  // A change made straight on the pool has committed already: its entry cannot share it. Written
  // anyway (not lost), and logged as the defect it is (tests fail on any logged error), unless the
  // change was handed a database to write its entry with and wrote nothing (EntryInChangeStatement).
  if (!EntryInChangeStatement.changedNothingElse(trx)) {
    ctx.logger.error("audit entry written outside its change's transaction", { action: scope.action });
  }
  await appendAlone(ctx, entry);
}

/**
 * Runs a change that is one statement (or several on `ctx.db`) so its entry commits with it: in a
 * transaction with the entry when the request is audited and has none yet, else straight on `ctx.db`.
 */
export async function auditedChange<T>(
  ctx: AuthContext,
  change: (db: DB) => Promise<T>,
  facts: AuditFacts = {},
): Promise<T> {
  if (!auditPending(ctx)) return change(ctx.db);
  return ctx.db.transaction().execute(async (trx) => {
    const result = await change(trx);
    await auditChange(ctx, trx, facts);
    return result;
  });
}

/** The subject and organization a webhook event's row names. */
function factsOfEvent(event: WebhookEvent, data: unknown): ChangeFacts {
  const row = (Array.isArray(data) ? data[0] : data) as Record<string, unknown> | undefined;
  if (!row) return {};
  const text = (key: string) => (typeof row[key] === "string" ? (row[key] as string) : undefined);
  if (event.startsWith("user.")) return { subjectId: text("id") };
  if (event.startsWith("session.") || event.startsWith("member.")) {
    return { subjectId: text("userId"), organizationId: text("organizationId") };
  }
  if (event.startsWith("organization.")) return { organizationId: text("id") };
  return { organizationId: text("organizationId") };
}

/** Whether a change now would be audited (the outbox then wraps one-statement changes in a transaction). */
export function auditPending(ctx: AuthContext): boolean {
  return ctx.audit !== undefined && !ctx.audit.written;
}

/**
 * After the handler: a failure is always written here, in a transaction of its own (its change's, if
 * any, rolled back with whatever it wrote); so is a challenged sign-in and a success that changed
 * nothing. Every change records its success inside its own transaction (auditChange).
 */
export async function auditOutcome(ctx: AuthContext, scope: AuditScope, outcome: AuditOutcome): Promise<void> {
  if (outcome !== "failure" && (scope.written || scope.whenChanged)) return;
  scope.written = true;
  // A success no change's transaction recorded changed nothing (revoking sessions when none are
  // left): its entry says so, so a change that forgot to record itself would stand out in the trail.
  if (outcome === "success" && !scope.challenged) scope.details.unchanged = true;
  await appendAlone(ctx, entryOf(ctx, scope, outcome === "success" && scope.challenged ? "challenged" : outcome));
}

function systemScope(action: AuditAction, details: Record<string, unknown>): AuditScope {
  return {
    action,
    whenChanged: false,
    actorType: "system",
    actorId: null,
    subjectId: null,
    sessionUserId: null,
    organizationId: null,
    sessionOrganizationId: null,
    ipAddress: null,
    userAgent: null,
    requestId: null,
    details,
    challenged: false,
    written: false,
  };
}

/** An entry the service writes for itself (housekeeping): actor `system`. */
export async function auditSystemEvent(
  ctx: AuthContext,
  trx: DB,
  action: AuditAction,
  details: Record<string, unknown>,
): Promise<void> {
  await append(ctx, trx, entryOf(ctx, systemScope(action, details), "success"));
}

/**
 * An entry of its own beside the request's (a break-glass sign-in, a policy change), in `trx`: as
 * the user `actorId`, with the request's origin when there is one. Written only with auditing on.
 */
export function auditEvent(
  ctx: AuthContext,
  trx: DB,
  action: AuditAction,
  facts: { actorId: string; subjectId?: string; organizationId?: string; details?: Record<string, unknown> },
): Promise<void> {
  return appendEvent(ctx, trx, action, "user", facts);
}

/** An entry of its own that an API key's use makes (a new address): the `key` actor, in `trx`. */
export function auditKeyEvent(
  ctx: AuthContext,
  trx: DB,
  action: AuditAction,
  facts: { actorId: string; subjectId?: string; organizationId?: string; details?: Record<string, unknown> },
): Promise<void> {
  return appendEvent(ctx, trx, action, "key", facts);
}

/**
 * An entry of its own for what an organization's connection did at a sign-in (created or linked the
 * user, added the member, changed the role): the `directory` actor, named by the connection's
 * `providerId`, in `trx`. Written only with auditing on.
 */
export function auditDirectoryEvent(
  ctx: AuthContext,
  trx: DB,
  action: AuditAction,
  facts: { providerId: string; organizationId: string; subjectId: string; details?: Record<string, unknown> },
): Promise<void> {
  return appendEvent(ctx, trx, action, "directory", {
    ...facts,
    actorId: facts.providerId,
    details: { providerId: facts.providerId, ...facts.details },
  });
}

async function appendEvent(
  ctx: AuthContext,
  trx: DB,
  action: AuditAction,
  actorType: AuditActorType,
  facts: { actorId: string; subjectId?: string; organizationId?: string; details?: Record<string, unknown> },
): Promise<void> {
  if (!ctx.options.audit.enabled) return;
  const request = ctx.audit;
  const scope: AuditScope = {
    ...systemScope(action, facts.details ?? {}),
    actorType,
    actorId: facts.actorId,
    subjectId: facts.subjectId ?? null,
    organizationId: facts.organizationId ?? null,
    ipAddress: request?.ipAddress ?? null,
    userAgent: request?.userAgent ?? null,
    requestId: request?.requestId ?? null,
  };
  await append(ctx, trx, entryOf(ctx, scope, "success"));
}

/**
 * A change the app makes through auth.api without a request (add-member, set-password): audited as
 * the `system` actor, the entry in the change's transaction, a failure on its own.
 */
export async function auditedSystemCall<T>(
  ctx: AuthContext,
  action: AuditAction,
  run: (ctx: AuthContext) => Promise<T>,
): Promise<T> {
  if (!ctx.options.audit.enabled) return run(ctx);
  const scope = systemScope(action, {});
  try {
    const result = await run(auditedContext(ctx, scope));
    await auditOutcome(ctx, scope, "success");
    return result;
  } catch (error) {
    scope.details.code = (error as { code?: unknown }).code ?? "INTERNAL_SERVER_ERROR";
    await auditOutcome(ctx, scope, "failure");
    throw error;
  }
}

/**
 * Retention (audit.retentionDays): drops the sealed entries older than that from the chain's start,
 * moves the anchor to the last one dropped, and records the pruning as a checkpoint entry of its own
 * carrying the pruned prefix's last number and hash, all in one transaction. Returns how many went.
 */
export async function pruneAuditTrailByRetention(ctx: AuthContext): Promise<number> {
  const days = ctx.options.audit.retentionDays;
  if (days === undefined) return 0;
  const before = new Date(ctx.now().getTime() - days * 86400_000);
  return ctx.db.transaction().execute(async (trx) => {
    const pruned = await pruneAuditTrail(trx, ctx.dialect, before);
    if (!pruned) return 0;
    await auditSystemEvent(ctx, trx, "audit.pruned", {
      entries: pruned.pruned,
      throughSeq: pruned.anchorSeq,
      throughHash: pruned.anchorHash,
      before: before.toISOString(),
    });
    return pruned.pruned;
  });
}

export type { AuditTrailEntry };
