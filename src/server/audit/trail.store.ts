import { CompiledQuery, sql } from "kysely";
import type { AuditOutcome, AuditTrailEntry } from "../../contract/audit.js";
import type { DB } from "../store/db.js";
import type { DialectName } from "../store/dialect.js";
import { directWriterIn } from "../store/direct-writes.js";
import { toDate, toDateOrNull } from "../store/values.js";
import { AUDIT_ENTRY_COLUMNS } from "./entry.store.js";
import { auditEntryHash } from "./hash.js";

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
 * Seals one batch inside `trx`: claims the head (claimHead), takes the oldest committed unsealed
 * entries (by time, then id; an entry that commits meanwhile is not seen, and waits for the next
 * batch), numbers them on from the head, hashes each over the one before, and moves the head. The
 * whole batch commits as one: a sealer stopped halfway leaves nothing, and the next redoes it.
 * Returns the sealed entries, or null when another sealer holds the head. `db`, the database `trx` is
 * a transaction on: on SQLite the entries' updates then run straight on its connection.
 */
export async function sealAuditBatch(
  trx: DB,
  dialect: DialectName,
  claim: SealerClaim,
  db?: DB,
): Promise<AuditTrailEntry[] | null> {
  const head = await claimHead(trx, dialect, claim);
  if (!head) return null;
  let query = trx
    .selectFrom("auditTrail")
    .select([...AUDIT_ENTRY_COLUMNS])
    // SQLite's trail has no index on `id` (migration 0041): its batch updates by rowid.
    .select(sql<number>`${sql.raw(dialect === "sqlite" ? "rowid" : "0")}`.as("rowKey"))
    .where("seq", "is", null)
    .orderBy("createdAt")
    .orderBy("id")
    .limit(claim.limit);
  // Locked so that a deletion of one (within the window, docs/audit.md) cannot slip between this read and the update.
  if (dialect === "postgres") query = query.forUpdate();
  const rows = await query.execute();
  if (rows.length === 0) return [];
  let seq = Number(head.headSeq);
  let previousHash = head.headHash;
  const sealed = rows.map(({ rowKey, ...row }) => {
    seq++;
    const fields = { ...row, seq, createdAt: toDate(row.createdAt) };
    previousHash = auditEntryHash(fields, previousHash);
    return { ...fields, hash: previousHash, rowKey };
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
  return sealed.map(({ rowKey: _rowKey, ...entry }) => mapEntry(entry));
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

/** Whether any entry waits to be sealed: one probe of the unsealed index, outside any transaction. */
export async function hasUnsealedEntries(db: DB): Promise<boolean> {
  const row = await db.selectFrom("auditTrail").select("id").where("seq", "is", null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The entries not sealed yet: how many, and when the oldest was written. */
export interface UnsealedTail {
  count: number;
  oldestCreatedAt: Date | null;
}

/** One aggregate over the unsealed index (auditTrail_unsealed_idx). */
export async function unsealedTail(db: DB): Promise<UnsealedTail> {
  const row = await db
    .selectFrom("auditTrail")
    .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min("createdAt").as("oldest")])
    .where("seq", "is", null)
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

/** Sealed entries, newest first, filtered; `limit` rows at most. An entry is listed once sealed. */
export async function listAuditTrail(db: DB, filter: AuditTrailFilter): Promise<AuditTrailEntry[]> {
  let query = db.selectFrom("auditTrail").selectAll();
  if (filter.organizationId !== undefined) query = query.where("organizationId", "=", filter.organizationId);
  if (filter.actorId !== undefined) query = query.where("actorId", "=", filter.actorId);
  if (filter.subjectId !== undefined) query = query.where("subjectId", "=", filter.subjectId);
  if (filter.action !== undefined) query = query.where("action", "=", filter.action);
  if (filter.outcome !== undefined) query = query.where("outcome", "=", filter.outcome);
  if (filter.outcomeNot !== undefined) query = query.where("outcome", "!=", filter.outcomeNot);
  if (filter.from !== undefined) query = query.where("createdAt", ">=", filter.from);
  if (filter.to !== undefined) query = query.where("createdAt", "<", filter.to);
  // Two reads, not one `seq desc nulls first`: the readers' indexes hold sealed entries only
  // (migration 0041), so a read must say `seq is not null` to use them; the unsealed tail has its own.
  const unsealed =
    filter.includeUnsealed && filter.beforeSeq === undefined
      ? await query.where("seq", "is", null).orderBy("createdAt", "desc").orderBy("id").limit(filter.limit).execute()
      : [];
  if (filter.beforeSeq !== undefined) query = query.where("seq", "<", filter.beforeSeq);
  const left = filter.limit - unsealed.length;
  const sealed = left > 0 ? await query.where("seq", "is not", null).orderBy("seq", "desc").limit(left).execute() : [];
  return [...unsealed, ...sealed].map(mapEntry);
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
