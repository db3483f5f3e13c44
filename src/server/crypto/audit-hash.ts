import { createHash } from "node:crypto";

/** The fields of an entry that its hash covers, as stored (details as its JSON text). */
export interface HashedAuditFields {
  seq: number;
  id: string;
  createdAt: Date;
  action: string;
  outcome: string;
  actorType: string;
  actorId: string | null;
  subjectId: string | null;
  organizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
  details: string | null;
}

/**
 * SHA-256 (hex) over the entry's canonical encoding and the previous entry's hash: a JSON array in
 * a fixed field order, of strings, numbers and nulls only, which JSON.stringify writes one way.
 */
export function auditEntryHash(entry: HashedAuditFields, previousHash: string): string {
  const canonical = JSON.stringify([
    entry.seq,
    entry.id,
    entry.createdAt.toISOString(),
    entry.action,
    entry.outcome,
    entry.actorType,
    entry.actorId,
    entry.subjectId,
    entry.organizationId,
    entry.ipAddress,
    entry.userAgent,
    entry.requestId,
    entry.details,
    previousHash,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
