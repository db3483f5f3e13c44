import { type Kysely, PostgresAdapter } from "kysely";

export type DialectName = "sqlite" | "postgres";

/** Column types that differ between the two dialects; everything else is written once. */
export function columnTypes(dialect: DialectName) {
  return dialect === "postgres"
    ? ({ timestamp: "timestamptz", boolean: "boolean", text: "text", integer: "integer" } as const)
    : ({ timestamp: "text", boolean: "integer", text: "text", integer: "integer" } as const);
}

/** The dialect `db` speaks (a transaction's or a plugin's view of it too), for a function handed only a database. */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}
