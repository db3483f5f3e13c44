import { hash } from "node:crypto";
import type { z } from "zod";
import { AUDIT_ENTRY_COLUMNS, type AUDIT_ENTRY_FIELDS, type AuditEntryField } from "../../contract/audit.js";

/** A field's value as stored: a time as a Date, any other text as text, details as their JSON text. */
type Stored<T> = T extends Date ? Date : T extends string ? string : T extends object ? string : T;

/** An entry's own fields as stored, from the one declaration of them (contract/audit.ts, AUDIT_ENTRY_FIELDS). */
export type StoredAuditFields = { [K in AuditEntryField]: Stored<z.output<(typeof AUDIT_ENTRY_FIELDS)[K]>> };

/**
 * The fields of an entry that its hash covers: its number and all its own fields, its time as a Date
 * or as the text its `toISOString` gives (what SQLite stored, read back without parsing it).
 */
export type HashedAuditFields = Omit<StoredAuditFields, "createdAt"> & { seq: number; createdAt: Date | string };

/**
 * The fields every entry's hash has always covered, `details` the last of them. A field declared
 * after it joins the hash only when set: trailing nulls past these are left out, so an entry sealed
 * before a field existed hashes as it did (and no two entries share an encoding: the column list
 * fixes each value's place).
 */
const ALWAYS_HASHED = AUDIT_ENTRY_COLUMNS.indexOf("details") + 1;

/**
 * The canonical encoding of an entry's own fields (all but its number), in AUDIT_ENTRY_COLUMNS order:
 * the middle of the JSON array the hash is taken over, without brackets. A time is its `toISOString`.
 * The definition older chains were written by: the sealer (audit/trail.store.ts) hashes by it too.
 */
export function auditEntryBody(entry: Omit<HashedAuditFields, "seq">): string {
  const values: unknown[] = AUDIT_ENTRY_COLUMNS.map((column) => {
    const value = entry[column];
    return value instanceof Date ? value.toISOString() : value;
  });
  let end = values.length;
  while (end > ALWAYS_HASHED && (values[end - 1] === null || values[end - 1] === undefined)) end--;
  return JSON.stringify(values.slice(0, end)).slice(1, -1);
}

/** `toISOString`'s form, as the hash encodes a time. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A stored time as the hash encodes it: SQLite's text when already in that form (the sealer then
 * parses and formats no date per entry), else a Date (PostgreSQL's as read; other text parsed).
 */
export function hashedTime(value: Date | string): Date | string {
  if (typeof value !== "string") return value;
  return ISO_TIME.test(value) ? value : new Date(value);
}

/**
 * SHA-256 (hex) of `[seq,<body>,"<previous hash>"]`, UTF-8. One-shot `hash` rather than a Hash
 * object: a third cheaper for a few hundred bytes.
 */
export function chainHash(seq: number, body: string, previousHash: string): string {
  return hash("sha256", `[${seq},${body},${JSON.stringify(previousHash)}]`, "hex");
}

/**
 * SHA-256 (hex) over the entry's canonical encoding and the previous entry's hash: a JSON array in
 * a fixed field order, of strings, numbers and nulls only, which JSON.stringify writes one way.
 */
export function auditEntryHash(entry: HashedAuditFields, previousHash: string): string {
  return chainHash(entry.seq, auditEntryBody(entry), previousHash);
}
