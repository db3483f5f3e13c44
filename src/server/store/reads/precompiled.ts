import type { Compilable } from "kysely";
import type { DB } from "../db.js";
import { hasDirectReader, readRowsDirect } from "./direct.js";
import type { ReadOptions } from "./postgres-reads.js";

/** Stands in for argument i while a query is compiled once; never a real value. */
const PLACEHOLDER = "\u0000gatehouse-argument-";

/** A compiled query with, for each bound parameter, the argument it takes or the constant it keeps. */
interface Template {
  sql: string;
  slots: ({ argument: number } | { constant: unknown })[];
}

const templates = new WeakMap<DB, Map<string, Template>>();

function compileTemplate(build: (args: readonly unknown[]) => Compilable<unknown>, arity: number): Template {
  const placeholders = Array.from({ length: arity }, (_, i) => `${PLACEHOLDER}${i}`);
  const compiled = build(placeholders).compile();
  const slots = compiled.parameters.map((value) => {
    if (typeof value !== "string" || !value.includes(PLACEHOLDER)) return { constant: value };
    const argument = placeholders.indexOf(value);
    // An argument folded into another value (a LIKE pattern, a list) cannot be re-bound by position.
    if (argument < 0) throw new Error(`precompiled query uses an argument inside another value: ${compiled.sql}`);
    return { argument };
  });
  return { sql: compiled.sql, slots };
}

/**
 * Runs a read whose SQL depends only on `shape`: built and compiled once per database and shape,
 * then each call binds its `args` by position (each must be a value of its own, which compiling
 * checks). Runs as readRowsDirect runs it, or through Kysely inside a transaction; map timestamps
 * with toDate, since they come as text directly but as Dates through Kysely on PostgreSQL.
 */
export async function readPrecompiled<Row>(
  db: DB,
  shape: string,
  args: readonly unknown[],
  build: (args: readonly unknown[]) => Compilable<Row>,
  options?: ReadOptions,
): Promise<Row[]> {
  if (!hasDirectReader(db)) return (await db.executeQuery<Row>(build(args).compile())).rows as Row[];
  let byShape = templates.get(db);
  if (!byShape) {
    byShape = new Map();
    templates.set(db, byShape);
  }
  let template = byShape.get(shape);
  if (!template) {
    template = compileTemplate(build, args.length);
    byShape.set(shape, template);
  }
  const parameters = template.slots.map((slot) => ("argument" in slot ? args[slot.argument] : slot.constant));
  const direct = readRowsDirect(db, template.sql, parameters, options);
  // SQLite's rows are here already: awaiting them would only cost a turn.
  if (Array.isArray(direct)) return direct as Row[];
  if (direct) return (await direct) as Row[];
  // Through Kysely, whose plugins bind the values (a transaction is open on the SQLite connection).
  const result = await db.executeQuery<Row>(build(args).compile());
  return result.rows as Row[];
}

/** The first row of readPrecompiled, or undefined. */
export async function readOnePrecompiled<Row>(
  db: DB,
  shape: string,
  args: readonly unknown[],
  build: (args: readonly unknown[]) => Compilable<Row>,
): Promise<Row | undefined> {
  return (await readPrecompiled(db, shape, args, build))[0];
}
