import { AuthError } from "../errors.js";
import type { FieldSpec, TableFields } from "../store/additional-fields.js";

/** Who sets the fields: a client over HTTP may not set input:false ones; the embedding server may. */
export type FieldSource = "client" | "server";

/** Longest text a string field takes from a request (the body bound stops far larger ones anyway). */
const MAX_TEXT_LENGTH = 10_000;

function invalid(field: FieldSpec, what: string): AuthError {
  return new AuthError("VALIDATION_ERROR", { message: `Invalid input: ${field.name} must be ${what}` });
}

/** A sent value as it is stored (null clears an optional field), or a 400 naming the field. */
function checkedValue(field: FieldSpec, value: unknown): unknown {
  if (value === null) {
    if (field.required) throw invalid(field, `a ${field.type}`);
    return null;
  }
  switch (field.type) {
    case "string":
      if (typeof value !== "string" || value.length > MAX_TEXT_LENGTH) throw invalid(field, "a string");
      return value;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) throw invalid(field, "a number");
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw invalid(field, "a boolean");
      return value;
    case "date": {
      const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null;
      if (!date || Number.isNaN(date.getTime())) throw invalid(field, "a date (ISO 8601 text)");
      return date;
    }
  }
}

/**
 * The table's fields a request body carries, checked and ready to store. When `creating`, a
 * required field must be there (or have a default) and absent ones take their defaults. A client's
 * input:false field is refused with FIELD_NOT_ALLOWED, as update-user refuses its own server fields.
 */
export function readFieldInput(
  fields: TableFields,
  body: unknown,
  how: { creating: boolean; source: FieldSource },
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (fields.all.length === 0) return values;
  const sent = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  for (const field of fields.all) {
    const given = Object.hasOwn(sent, field.name) ? sent[field.name] : undefined;
    if (given !== undefined) {
      if (!field.input && how.source === "client") {
        throw new AuthError("FIELD_NOT_ALLOWED", { message: `${field.name} is not allowed to be set` });
      }
      values[field.name] = checkedValue(field, given);
    } else if (how.creating) {
      if (field.defaultValue !== undefined) values[field.name] = checkedValue(field, field.defaultValue);
      else if (field.required) {
        throw new AuthError("VALIDATION_ERROR", { message: `Invalid input: ${field.name} is required` });
      }
    }
  }
  return values;
}

/** The values a new row takes from defaults alone (a new session: no client sends its fields). */
export function defaultFieldValues(fields: TableFields): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields.all) {
    if (field.defaultValue !== undefined) values[field.name] = checkedValue(field, field.defaultValue);
  }
  return values;
}
