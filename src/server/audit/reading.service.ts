import {
  AUDIT_ENTRY_COLUMNS,
  type AuditAction,
  type AuditChainCheck,
  type AuditTrailEntry,
  type AuditTrailPage,
} from "../../contract/audit.js";
import type { Session } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { isOwnerRole } from "../services/access-control.js";
import { type AdminActor, requireAdminPermission } from "../services/admin-access.js";
import { requireMember } from "../services/organization-access.js";
import type { DB } from "../store/db.js";
import { type AuditTrailFilter, listAuditTrail, verifyAuditChain } from "./trail.store.js";

/**
 * The sealed chain checked from its anchor to its head, and the unsealed tail: overdue once its oldest
 * has waited longer than audit.sealWithinSeconds (no instance is sealing).
 */
export function checkTrail(ctx: AuthContext): Promise<AuditChainCheck> {
  return checkTrailOf(ctx.db, ctx.options.audit.sealWithinSeconds, ctx.now());
}

/** checkTrail for a database opened without a service around it (`gatehouse audit verify`). */
export async function checkTrailOf(db: DB, sealWithinSeconds: number, now: Date): Promise<AuditChainCheck> {
  const check = await verifyAuditChain(db);
  const oldest = check.unsealed.oldestCreatedAt;
  const oldestAgeSeconds = oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0;
  return {
    ...check,
    unsealed: {
      ...check.unsealed,
      oldestAgeSeconds,
      overdue: oldestAgeSeconds > sealWithinSeconds,
    },
  };
}

/** The filters a reader gives (contract/audit.ts). */
export interface TrailQuery {
  actorId?: string;
  action?: AuditAction;
  from?: Date;
  to?: Date;
}

const DEFAULT_PAGE = 100;
/** An export reads the trail in pages of this many, so memory stays flat however long it is. */
const EXPORT_PAGE = 500;

/** Whose trail a caller may read: the whole one (an admin) or one organization's (its owner). */
export type TrailScope = { organizationId?: string };

export function requireWholeTrail(ctx: AuthContext, actor: AdminActor): TrailScope {
  requireAdminPermission(ctx, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_LOG");
  return {};
}

/** An organization's trail is its owners' to read: a member who is not one, or an outsider, is refused. */
export async function requireOrganizationTrail(
  ctx: AuthContext,
  session: Session,
  organizationId: string,
): Promise<TrailScope> {
  const member = await requireMember(
    ctx.db,
    organizationId,
    session.userId,
    "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
  );
  if (!isOwnerRole(ctx, member.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_TRAIL");
  return { organizationId };
}

function filterOf(scope: TrailScope, query: TrailQuery, limit: number, beforeSeq?: number): AuditTrailFilter {
  return { ...scope, ...query, limit, beforeSeq };
}

/** One page, newest first; the cursor is the last entry's sequence number. */
export async function readTrailPage(
  ctx: AuthContext,
  scope: TrailScope,
  query: TrailQuery & { cursor?: string; limit?: number },
): Promise<AuditTrailPage> {
  const limit = query.limit ?? DEFAULT_PAGE;
  const { cursor, limit: _limit, ...filters } = query;
  const entries = await listAuditTrail(
    ctx.db,
    filterOf(scope, filters, limit + 1, cursor ? Number(cursor) : undefined),
  );
  const page = entries.slice(0, limit);
  const last = page[page.length - 1];
  return { entries: page, nextCursor: entries.length > limit && last ? String(last.seq) : null };
}

/** The stored order: the entry's number, its own columns, its hash. */
const CSV_COLUMNS = ["seq", ...AUDIT_ENTRY_COLUMNS, "hash"] as const satisfies readonly (keyof AuditTrailEntry)[];

/**
 * A CSV field (RFC 4180), always quoted. A = + - @ tab or carriage return that starts the text, or
 * follows a comma or semicolon in it, is prefixed with ' so no spreadsheet runs it as a formula:
 * one that splits on `;` (as Excel does in many locales) may split inside a quoted cell. User agents
 * and details are the callers' text.
 */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '""';
  const text =
    value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  const inert = text.replace(/(^|[,;])([=+\-@\t\r])/g, "$1'$2");
  return `"${inert.replaceAll('"', '""')}"`;
}

/** Every matching entry, newest first, one line each: JSON Lines or CSV with a header. */
export function exportTrail(
  ctx: AuthContext,
  scope: TrailScope,
  query: TrailQuery,
  format: "jsonl" | "csv",
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let beforeSeq: number | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started && format === "csv")
        controller.enqueue(encoder.encode(`${CSV_COLUMNS.map(csvField).join(",")}\r\n`));
      started = true;
      const entries = await listAuditTrail(ctx.db, filterOf(scope, query, EXPORT_PAGE, beforeSeq));
      const lines = entries.map((entry) =>
        format === "csv"
          ? `${CSV_COLUMNS.map((column) => csvField(entry[column])).join(",")}\r\n`
          : `${JSON.stringify(entry)}\n`,
      );
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.join("")));
      const last = entries[entries.length - 1];
      if (entries.length < EXPORT_PAGE || !last) controller.close();
      else beforeSeq = last.seq;
    },
  });
}
