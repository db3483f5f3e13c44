import { sql } from "kysely";
import type { AdditionalFieldOption, AdditionalFieldType, FieldTable } from "../additional-field-options.js";
import { ConfigError } from "../options.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { type TimeOf, toDate } from "./values.js";

/** One configured field: its column is named like it. */
export interface FieldSpec extends AdditionalFieldOption {
  readonly name: string;
}

/** One table's fields, and the few views of them the hot paths need, computed once. */
export interface TableFields {
  readonly all: readonly FieldSpec[];
  /** Those a reply carries (returned !== false). */
  readonly returned: readonly FieldSpec[];
}

/** Every table's fields, and a key that tells precompiled statements of different fields apart. */
export interface AdditionalFields {
  readonly user: TableFields;
  readonly session: TableFields;
  readonly organization: TableFields;
  /** "" without fields, so the default statements keep their names. */
  readonly key: string;
}

function tableFields(option: Readonly<Record<string, AdditionalFieldOption>>): TableFields {
  const all = Object.entries(option).map(([name, field]) => Object.freeze({ ...field, name }));
  return Object.freeze({ all, returned: all.filter((f) => f.returned) });
}

/** The fields the options configure (their names and types were checked by the option schema). */
export function resolveAdditionalFields(options: {
  user: { additionalFields: Readonly<Record<string, AdditionalFieldOption>> };
  session: { additionalFields: Readonly<Record<string, AdditionalFieldOption>> };
  organization: { additionalFields: Readonly<Record<string, AdditionalFieldOption>> };
}): AdditionalFields {
  const user = tableFields(options.user.additionalFields);
  const session = tableFields(options.session.additionalFields);
  const organization = tableFields(options.organization.additionalFields);
  const describe = (t: TableFields) => t.all.map((f) => `${f.name}:${f.type}:${f.returned ? 1 : 0}`).join(",");
  const any = user.all.length + session.all.length + organization.all.length > 0;
  const key = any ? `#u${describe(user)};s${describe(session)};o${describe(organization)}` : "";
  return Object.freeze({ user, session, organization, key });
}

export const NO_ADDITIONAL_FIELDS: AdditionalFields = resolveAdditionalFields({
  user: { additionalFields: {} },
  session: { additionalFields: {} },
  organization: { additionalFields: {} },
});

export const NO_FIELDS: TableFields = NO_ADDITIONAL_FIELDS.user;

// ---- columns -------------------------------------------------------------------------------------

/** The column type a new field gets. */
function columnType(dialect: DialectName, type: AdditionalFieldType): string {
  const postgres = dialect === "postgres";
  switch (type) {
    case "string":
      return "text";
    case "number":
      return postgres ? "double precision" : "real";
    case "boolean":
      return postgres ? "boolean" : "integer";
    case "date":
      return postgres ? "timestamptz" : "text";
  }
}

/** Existing column types a field of this type can live in (as the catalogue spells them, lower case). */
function compatibleTypes(dialect: DialectName, type: AdditionalFieldType): readonly string[] {
  if (dialect === "postgres") {
    return {
      string: ["text", "character varying", "character"],
      number: ["double precision", "real", "integer", "bigint", "numeric", "smallint"],
      boolean: ["boolean"],
      date: ["timestamp with time zone", "timestamp without time zone", "date"],
    }[type];
  }
  return {
    string: ["text", "varchar", ""],
    number: ["real", "integer", "double", "numeric", "float", ""],
    boolean: ["integer", "boolean", ""],
    date: ["text", "timestamp", "datetime", "date", ""],
  }[type];
}

/** Column name -> type (lower case) of a table. */
async function columnsOf(db: DB, dialect: DialectName, table: FieldTable): Promise<Map<string, string>> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ column_name: string; data_type: string }>`
      select column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    return new Map(rows.map((r) => [r.column_name, r.data_type.toLowerCase()]));
  }
  const { rows } = await sql<{
    name: string;
    type: string;
  }>`select name, type from pragma_table_info(${table})`.execute(db);
  return new Map(rows.map((r) => [r.name, r.type.toLowerCase()]));
}

/**
 * Adds the column of every configured field that has none yet; never drops or alters one. Safe to
 * run again, and by several instances at once. A column whose type cannot hold its field's values
 * is a ConfigError naming both.
 */
export async function ensureAdditionalColumns(db: DB, dialect: DialectName, fields: AdditionalFields): Promise<number> {
  let added = 0;
  for (const table of ["user", "session", "organization"] as const) {
    if (fields[table].all.length === 0) continue;
    const existing = await columnsOf(db, dialect, table);
    for (const field of fields[table].all) {
      const found = existing.get(field.name);
      if (found !== undefined) {
        if (!compatibleTypes(dialect, field.type).includes(found)) {
          throw new ConfigError(
            `options: option "${table}.additionalFields.${field.name}": type "${field.type}" does not fit the existing column "${table}"."${field.name}" of type "${found}"`,
          );
        }
        continue;
      }
      await addColumn(db, dialect, table, field);
      added += 1;
    }
  }
  return added;
}

async function addColumn(db: DB, dialect: DialectName, table: FieldTable, field: FieldSpec): Promise<void> {
  const type = sql.raw(columnType(dialect, field.type));
  // Names passed the option schema's identifier pattern; sql.id quotes them as well.
  if (dialect === "postgres") {
    await sql`alter table ${sql.id(table)} add column if not exists ${sql.id(field.name)} ${type}`.execute(db);
    return;
  }
  try {
    await sql`alter table ${sql.id(table)} add column ${sql.id(field.name)} ${type}`.execute(db);
  } catch (error) {
    // Another process added it between our look and our change (SQLite has no IF NOT EXISTS here).
    if (!/duplicate column/i.test((error as Error).message)) throw error;
  }
}

// ---- values --------------------------------------------------------------------------------------

/** A stored value as the domain has it: booleans from 0/1, numbers from text, dates by `time`. */
export function fieldValue<T>(field: FieldSpec, value: unknown, time: TimeOf<T>): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case "boolean":
      return value === true || value === 1 || value === "1" || value === "true";
    case "number":
      return typeof value === "number" ? value : Number(value);
    case "date":
      return time(value as string | Date | number);
    default:
      return String(value);
  }
}

/** Copies the returned fields of `row` onto `target` (a mapped model). */
export function copyFields<T>(
  target: Record<string, unknown>,
  row: Record<string, unknown>,
  fields: TableFields,
  time: TimeOf<T>,
  prefix = "",
): void {
  for (const field of fields.returned) target[field.name] = fieldValue(field, row[prefix + field.name], time);
}

/** The values a write stores: dates as Dates, the rest as given. */
export function storedValues(fields: TableFields, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const field of fields.all) {
    if (!(field.name in values)) continue;
    const value = values[field.name];
    stored[field.name] =
      field.type === "date" && value !== null && value !== undefined ? toDate(value as string) : value;
  }
  return stored;
}
