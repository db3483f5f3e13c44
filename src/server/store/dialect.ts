export type DialectName = "sqlite" | "postgres";

/** Column types that differ between the two dialects; everything else is written once. */
export function columnTypes(dialect: DialectName) {
  return dialect === "postgres"
    ? ({ timestamp: "timestamptz", boolean: "boolean", text: "text", integer: "integer" } as const)
    : ({ timestamp: "text", boolean: "integer", text: "text", integer: "integer" } as const);
}
