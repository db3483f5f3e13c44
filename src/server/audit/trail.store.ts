import { CompiledQuery, type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { AuditOutcome, AuditTrailEntry } from "../../contract/audit.js";
import type { DB } from "../store/db.js";
import { type DialectName, dialectOf } from "../store/dialect.js";
import { directWriterIn } from "../store/direct-writes.js";
import type { Database } from "../store/schema.js";
import { toDate, toDateOrNull } from "../store/values.js";
import { AUDIT_ENTRY_COLUMNS } from "./entry.store.js";
import { auditEntryHash, hashedTime } from "./hash.js";

type HeadRow = { headSeq: number | string; headHash: string };

/** Who seals, and how: see sealAuditBatch. */
export interface SealerClaim {
  /** This instance's sealer (SQLite's lease names it). */
  sealerId: string;
  /** Now, in ms since the epoch, and how long SQLite's lease lasts past it. */
  nowMs: number;
  leaseMs: number;
  /** Wait for another sealer's batch rather than leave the work to it (a seal asked for now). */
  wait: boolean;
  /** Entries sealed at most. */
  limit: number;
}

/**
 * Claims the chain's head for one batch, in `trx`: its row and whoever may seal. PostgreSQL: the head
 * row `FOR UPDATE` (`SKIP LOCKED` unless waiting), held until `trx` ends, so one sealer at a time across
 * instances. SQLite: a lease on the head row (an instance keeps sealing while it runs, another takes over
 * once the lease lapses); the update also makes `trx` the database's one writer until it ends, which is
 * what keeps two batches apart. Null: another sealer has it.
 */
async function claimHead(trx: DB, dialect: DialectName, claim: SealerClaim): Promise<HeadRow | null> {
  if (dialect === "postgres") {
    const lock = claim.wait ? "for update" : "for update skip locked";
    const { rows } = await trx.executeQuery<HeadRow>(
      CompiledQuery.raw(`select "headSeq", "headHash" from "auditChain" where "id" = 1 ${lock}`),
    );
    return rows[0] ?? null;
  }
  let update = trx
    .updateTable("auditChain")
    .set({ sealerId: claim.sealerId, sealerUntil: claim.nowMs + claim.leaseMs })
    .where("id", "=", 1);
  if (!claim.wait) {
    update = update.where((eb) =>
      eb.or([eb("sealerId", "is", null), eb("sealerId", "=", claim.sealerId), eb("sealerUntil", "<", claim.nowMs)]),
    );
  }
  const claimed = await update.executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return null;
  return trx.selectFrom("auditChain").select(["headSeq", "headHash"]).where("id", "=", 1).executeTakeFirstOrThrow();
}

/** SQLite: gives the lease back (an instance stopping), so the next one need not wait for it to lapse. */
export async function releaseSealerLease(db: DB, dialect: DialectName, sealerId: string): Promise<void> {
  if (dialect !== "sqlite") return;
  await db
    .updateTable("auditChain")
    .set({ sealerId: null, sealerUntil: null })
    .where("id", "=", 1)
    .where("sealerId", "=", sealerId)
    .execute();
}

/**
 * SQLite: a rowid after which every entry is unsealed (migration 0046). SQLite has one writer at a
 * time and gives a new row the rowid after the highest, and a batch seals in rowid order, so the
 * sealed entries are the rows up to the head's. The head's row is found by its number each time, not
 * remembered, as VACUUM may renumber rowids (in order). If it is gone (deleted, which the chain's
 * check reports), the highest-numbered row left stands in: the rows between are sealed ones, passed
 * over, not an idle sealer scanning the whole trail every tick. 0 when no entry is sealed.
 */
function sqliteUnsealedAfter(headSeq: RawBuilder<unknown> | number | string) {
  return sql<number>`coalesce(
    (select rowid from "auditTrail" where "seq" = ${headSeq}),
    (select rowid from "auditTrail" where "seq" is not null order by "seq" desc limit 1),
    0)`;
}

/** SQLite: the sealed head's number, read in the statement that needs it. */
const SQLITE_HEAD_SEQ = sql`(select "headSeq" from "auditChain" where "id" = 1)`;

/** Entries not sealed yet: on SQLite those after the head's row (see sqliteUnsealedAfter), on PostgreSQL through its index of them. */
function unsealedEntries(db: DB) {
  const query = db.selectFrom("auditTrail").where("seq", "is", null);
  return dialectOf(db) === "sqlite" ? query.where(sql`rowid`, ">", sqliteUnsealedAfter(SQLITE_HEAD_SEQ)) : query;
}

/**
 * Seals one batch inside `trx`: claims the head (claimHead), takes the oldest committed unsealed
 * entries (SQLite: in rowid order, see sqliteUnsealedAfter; PostgreSQL: by time, then id; an entry
 * that commits meanwhile is not seen, and waits for the next batch), numbers them on from the head,
 * hashes each over the one before, and moves the head. The whole batch commits as one: a sealer
 * stopped halfway leaves nothing, and the next redoes it.
 * Returns the sealed entries, or null when another sealer holds the head. `db`, the database `trx` is
 * a transaction on: on SQLite the entries' updates then run straight on its connection.
 */
export async function sealAuditBatch(
  trx: DB,
  dialect: DialectName,
  claim: SealerClaim,
  db?: DB,
): Promise<SealedBatch | null> {
  const head = await claimHead(trx, dialect, claim);
  if (!head) return null;
  const unsealed = trx
    .selectFrom("auditTrail")
    .select([...AUDIT_ENTRY_COLUMNS])
    // SQLite's trail has no index on `id` (migration 0041): its batch updates by rowid.
    .select(sql<number>`${sql.raw(dialect === "sqlite" ? "rowid" : "0")}`.as("rowKey"))
    .where("seq", "is", null)
    .limit(claim.limit);
  const query =
    dialect === "sqlite"
      ? unsealed.where(sql`rowid`, ">", sqliteUnsealedAfter(head.headSeq)).orderBy(sql`rowid`)
      : // Locked so that a deletion of one (within the window, docs/audit.md) cannot slip between this read and the update.
        unsealed.orderBy("createdAt").orderBy("id").forUpdate();
  const rows = await query.execute();
  if (rows.length === 0) return { count: 0, entries: () => [] };
  let seq = Number(head.headSeq);
  let previousHash = head.headHash;
  const sealed = rows.map((row) => {
    seq++;
    const fields = { ...row, seq, createdAt: hashedTime(row.createdAt) };
    previousHash = auditEntryHash(fields, previousHash);
    return { ...fields, hash: previousHash };
  });
  const updated =
    dialect === "postgres"
      ? Number(
          (
            await trx.executeQuery(
              CompiledQuery.raw(
                `update "auditTrail" as t set "seq" = v."seq", "hash" = v."hash"
                 from unnest($1::text[], $2::bigint[], $3::text[]) as v("id", "seq", "hash")
                 where t."id" = v."id" and t."seq" is null`,
                [sealed.map((e) => e.id), sealed.map((e) => e.seq), sealed.map((e) => e.hash)],
              ),
            )
          ).numAffectedRows ?? 0,
        )
      : await sealOnSqlite(trx, sealed, db);
  // Every entry read must take its number, or the chain would have a gap: give the batch up instead.
  if (updated !== sealed.length) throw new Error("an unsealed audit entry changed while its batch was sealed");
  await trx.updateTable("auditChain").set({ headSeq: seq, headHash: previousHash }).where("id", "=", 1).execute();
  return {
    count: sealed.length,
    // Read only when wanted (the `audit.entry` webhook, tests): most batches are told to no one.
    entries: () => sealed.map(({ rowKey: _rowKey, ...entry }) => mapEntry(entry)),
  };
}

/** What a batch sealed: how many, and the entries as read. */
export interface SealedBatch {
  count: number;
  entries(): AuditTrailEntry[];
}

const SQLITE_SEAL = `update "auditTrail" set "seq" = ?, "hash" = ? where rowid = ? and "seq" is null`;

async function sealOnSqlite(
  trx: DB,
  sealed: { rowKey: number; seq: number; hash: string }[],
  db?: DB,
): Promise<number> {
  const direct = db ? directWriterIn(db, trx) : undefined;
  let updated = 0;
  for (const entry of sealed) {
    const values = [entry.seq, entry.hash, entry.rowKey];
    updated += direct
      ? direct.run(SQLITE_SEAL, values)
      : Number((await trx.executeQuery(CompiledQuery.raw(SQLITE_SEAL, values))).numAffectedRows ?? 0);
  }
  return updated;
}

/** Whether any entry waits to be sealed: one probe, outside any transaction. */
export async function hasUnsealedEntries(db: DB): Promise<boolean> {
  const row = await unsealedEntries(db).select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The entries not sealed yet: how many, and when the oldest was written. */
export interface UnsealedTail {
  count: number;
  oldestCreatedAt: Date | null;
}

/** One aggregate over the unsealed entries (see unsealedEntries). */
export async function unsealedTail(db: DB): Promise<UnsealedTail> {
  const row = await unsealedEntries(db)
    .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min("createdAt").as("oldest")])
    .executeTakeFirst();
  return {
    count: Number(row?.count ?? 0),
    oldestCreatedAt: toDateOrNull(row?.oldest as Date | string | null | undefined),
  };
}

export interface AuditTrailFilter {
  organizationId?: string;
  actorId?: string;
  subjectId?: string;
  action?: string;
  outcome?: AuditOutcome;
  /** Entries of every outcome but this one. */
  outcomeNot?: AuditOutcome;
  from?: Date;
  to?: Date;
  /** Only entries older than this sequence number (the cursor). */
  beforeSeq?: number;
  /**
   * Unsealed entries too, first (their `seq` reads 0 and `hash` empty): for a reader that shows
   * neither, as the account's own security activity. The trail's readers list sealed entries only.
   */
  includeUnsealed?: boolean;
  limit: number;
}

type TrailRow = {
  seq: number | string | null;
  createdAt: Date | string;
  details: string | null;
  hash: string | null;
} & Omit<AuditTrailEntry, "seq" | "createdAt" | "details" | "action" | "outcome" | "actorType" | "hash"> & {
    action: string;
    outcome: string;
    actorType: string;
  };

function mapEntry(row: TrailRow): AuditTrailEntry {
  return {
    ...row,
    seq: Number(row.seq),
    hash: row.hash ?? "",
    createdAt: toDate(row.createdAt),
    details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
  } as AuditTrailEntry;
}

/** `query` narrowed to the entries `filter` asks for (all but its cursor and limit). */
function filtered<O>(
  query: SelectQueryBuilder<Database, "auditTrail", O>,
  filter: AuditTrailFilter,
): SelectQueryBuilder<Database, "auditTrail", O> {
  let q = query;
  if (filter.organizationId !== undefined) q = q.where("organizationId", "=", filter.organizationId);
  if (filter.actorId !== undefined) q = q.where("actorId", "=", filter.actorId);
  if (filter.subjectId !== undefined) q = q.where("subjectId", "=", filter.subjectId);
  if (filter.action !== undefined) q = q.where("action", "=", filter.action);
  if (filter.outcome !== undefined) q = q.where("outcome", "=", filter.outcome);
  if (filter.outcomeNot !== undefined) q = q.where("outcome", "!=", filter.outcomeNot);
  if (filter.from !== undefined) q = q.where("createdAt", ">=", filter.from);
  if (filter.to !== undefined) q = q.where("createdAt", "<", filter.to);
  return q;
}

/** Sealed entries, newest first, filtered; `limit` rows at most. An entry is listed once sealed. */
export async function listAuditTrail(db: DB, filter: AuditTrailFilter): Promise<AuditTrailEntry[]> {
  // Two reads, not one `seq desc nulls first`: the readers' indexes hold sealed entries only
  // (migration 0041), so a read must say `seq is not null` to use them; the unsealed tail is read apart.
  const unsealed =
    filter.includeUnsealed && filter.beforeSeq === undefined
      ? await filtered(unsealedEntries(db).selectAll(), filter)
          .orderBy("createdAt", "desc")
          .orderBy("id")
          .limit(filter.limit)
          .execute()
      : [];
  let sealed = filtered(db.selectFrom("auditTrail").selectAll(), filter).where("seq", "is not", null);
  if (filter.beforeSeq !== undefined) sealed = sealed.where("seq", "<", filter.beforeSeq);
  const left = filter.limit - unsealed.length;
  const rows = left > 0 ? await sealed.orderBy("seq", "desc").limit(left).execute() : [];
  return [...unsealed, ...rows].map(mapEntry);
}

/** Where a check of the chain found it broken: the first entry that does not hold, and why. */
export interface ChainBreak {
  seq: number;
  id: string | null;
  reason: "edited" | "missing" | "head-mismatch";
}

export interface ChainCheck {
  ok: boolean;
  checked: number;
  anchorSeq: number;
  headSeq: number;
  headHash: string;
  firstBad: ChainBreak | null;
  /** Entries written but not sealed yet: not covered by the check (docs/audit.md, "Sealing"). */
  unsealed: UnsealedTail;
}

const VERIFY_PAGE = 1000;

/**
 * Walks the sealed chain from its anchor to its head, recomputing every hash. A changed entry no
 * longer hashes to what it holds (or what the next one was chained to); a removed one (or one whose
 * number was taken away) leaves a gap in the numbers, or, at either end, an anchor or head that no
 * row meets. Also tells the unsealed tail, which no hash covers yet.
 */
export async function verifyAuditChain(db: DB): Promise<ChainCheck> {
  const head = await db
    .selectFrom("auditChain")
    .select(["headSeq", "headHash", "anchorSeq", "anchorHash"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  const unsealed = await unsealedTail(db);
  const headSeq = Number(head.headSeq);
  const anchorSeq = Number(head.anchorSeq);
  const result = (firstBad: ChainBreak | null, checked: number): ChainCheck => ({
    ok: firstBad === null,
    checked,
    anchorSeq,
    headSeq,
    headHash: head.headHash,
    firstBad,
    unsealed,
  });
  let expectedSeq = anchorSeq + 1;
  let previousHash = head.anchorHash;
  let checked = 0;
  for (;;) {
    const rows = await db
      .selectFrom("auditTrail")
      .selectAll()
      .where("seq", ">=", expectedSeq)
      .where("seq", "<=", headSeq)
      .orderBy("seq")
      .limit(VERIFY_PAGE)
      .execute();
    for (const raw of rows) {
      const seq = Number(raw.seq);
      if (seq !== expectedSeq) return result({ seq: expectedSeq, id: null, reason: "missing" }, checked);
      const fields = { ...raw, seq, createdAt: toDate(raw.createdAt) };
      if (raw.hash === null || auditEntryHash(fields, previousHash) !== raw.hash) {
        return result({ seq, id: raw.id, reason: "edited" }, checked);
      }
      previousHash = raw.hash;
      expectedSeq = seq + 1;
      checked++;
    }
    if (rows.length < VERIFY_PAGE) break;
  }
  if (expectedSeq <= headSeq) return result({ seq: expectedSeq, id: null, reason: "missing" }, checked);
  if (previousHash !== head.headHash) return result({ seq: headSeq, id: null, reason: "head-mismatch" }, checked);
  return result(null, checked);
}

/**
 * Drops the sealed entries older than `before` from the chain's start, in one transaction holding
 * the head (no batch seals meanwhile): the anchor moves to the last one dropped (its number and
 * hash), so the first entry kept still chains to something the check knows. Unsealed entries stay
 * for the sealer. Returns how many went, and the new anchor: the hash of the pruned prefix.
 */
export async function pruneAuditTrail(
  trx: DB,
  dialect: DialectName,
  before: Date,
): Promise<{ pruned: number; anchorSeq: number; anchorHash: string } | null> {
  let head = trx.selectFrom("auditChain").select("id").where("id", "=", 1);
  // SQLite has one writer at a time: this transaction's first write below keeps sealers out.
  if (dialect === "postgres") head = head.forUpdate();
  await head.executeTakeFirstOrThrow();
  const last = await trx
    .selectFrom("auditTrail")
    .select(["seq", "hash"])
    .where("seq", "is not", null)
    .where("createdAt", "<", before)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!last || last.seq === null || last.hash === null) return null;
  const anchorSeq = Number(last.seq);
  const deleted = await trx.deleteFrom("auditTrail").where("seq", "<=", anchorSeq).executeTakeFirst();
  await trx.updateTable("auditChain").set({ anchorSeq, anchorHash: last.hash }).where("id", "=", 1).execute();
  return { pruned: Number(deleted.numDeletedRows), anchorSeq, anchorHash: last.hash };
}
