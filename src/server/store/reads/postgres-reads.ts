/**
 * What the reader needs of node-postgres' Pool. Written out rather than imported, because these
 * declarations ship in the package, and `pg` is an optional peer that a SQLite app does not install.
 */
export interface QueryPool {
  query(config: { name: string; text: string; values: unknown[]; rowMode: "array" }): Promise<{ rows: unknown[][] }>;
}

/** How a hot read may run. */
export interface ReadOptions {
  /**
   * False for a read whose answer is large (a page of members with their users): it runs at once in
   * a round trip of its own, since coalesced large answers cost the garbage collector more than the
   * round trips saved (bench/README.md).
   */
  coalesce?: boolean;
}

/** Rows of one read: each row is the read's row as a JSON object (see postgresReader). */
export type PostgresRead = (
  sqlText: string,
  parameters: readonly unknown[],
  options?: ReadOptions,
) => Promise<unknown[]>;

/**
 * Most reads one statement carries (see batchSize): each copy adds plan memory in every backend
 * that runs it (docs/deployment.md), and its reads wait for each other's.
 */
export const MOST_READS_PER_ROUND_TRIP = 8;

interface Waiting {
  parameters: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

/** One SQL text: its statements by how many reads they carry, and the reads waiting for this turn. */
interface Shape {
  sqlText: string;
  /** How many `$n` placeholders one read binds. */
  arity: number;
  /** False when the text holds a `$` the renumbering could mistake for a placeholder. */
  batchable: boolean;
  statements: Map<number, { name: string; text: string }>;
  waiting: Waiting[];
}

/**
 * PostgreSQL's hot reads: named prepared statements (parsed once per connection), each row one json
 * column (cheap for node-postgres to parse, and immune to another instance's migration changing a
 * table). Reads of one SQL text issued in the same event-loop turn share a statement, a `UNION ALL`
 * of up to MOST_READS_PER_ROUND_TRIP copies; if PostgreSQL refuses it, each read runs again alone.
 */
export function postgresReader(pool: QueryPool, countRoundTrip: (reads: number) => void): PostgresRead {
  // By SQL text: the compiled shapes of the hot reads, a bounded set.
  const shapes = new Map<string, Shape>();
  const due: Shape[] = [];
  let issued = 0;

  function statementFor(shape: Shape, reads: number): { name: string; text: string } {
    let statement = shape.statements.get(reads);
    if (statement === undefined) {
      statement = { name: `gh_${issued++}`, text: statementText(shape, reads) };
      shape.statements.set(reads, statement);
    }
    return statement;
  }

  async function run(shape: Shape, reads: Waiting[]): Promise<void> {
    countRoundTrip(reads.length);
    const statement = statementFor(shape, reads.length);
    const values = reads.length === 1 ? reads[0]!.parameters : reads.flatMap((read) => read.parameters);
    let rows: unknown[][];
    try {
      ({ rows } = await pool.query({ ...statement, values: values as unknown[], rowMode: "array" }));
    } catch (error) {
      if (reads.length > 1 && answeredByServer(error)) for (const read of reads) void run(shape, [read]);
      else for (const read of reads) read.reject(error);
      return;
    }
    if (reads.length === 1) {
      reads[0]!.resolve(rows.map(([row]) => row));
      return;
    }
    const byRead: unknown[][] = reads.map(() => []);
    for (const [read, row] of rows) byRead[read as number]!.push(row);
    for (const [i, read] of reads.entries()) read.resolve(byRead[i]!);
  }

  function dispatch(): void {
    for (const shape of due.splice(0)) {
      const reads = shape.waiting;
      shape.waiting = [];
      let next = 0;
      while (next < reads.length) {
        const size = shape.batchable ? batchSize(reads.length - next) : 1;
        void run(shape, reads.slice(next, next + size));
        next += size;
      }
    }
  }

  return (sqlText, parameters, options) =>
    new Promise((resolve, reject) => {
      let shape = shapes.get(sqlText);
      if (shape === undefined) {
        shape = newShape(sqlText);
        shapes.set(sqlText, shape);
      }
      if (options?.coalesce === false) {
        void run(shape, [{ parameters, resolve, reject }]);
        return;
      }
      // After the poll phase: the other sockets' requests of this turn join the same statement.
      if (due.length === 0) setImmediate(dispatch);
      if (shape.waiting.length === 0) due.push(shape);
      shape.waiting.push({ parameters, resolve, reject });
    });
}

/**
 * Whether PostgreSQL itself refused the statement (its errors carry a severity), as it does for one
 * read's bad value: then each read may succeed alone. A pool that has ended or a connection that
 * cannot be made fails every read the same way, so those are not tried again one by one.
 */
function answeredByServer(error: unknown): boolean {
  return typeof (error as { severity?: unknown } | null)?.severity === "string";
}

/**
 * How many of `waiting` reads the next statement carries: the largest power of two up to
 * MOST_READS_PER_ROUND_TRIP (seven go as 4 + 2 + 1), so a shape has at most four statements on a
 * connection rather than one per count (each holds plan memory in the backend).
 */
export function batchSize(waiting: number): number {
  let size = 1;
  while (size * 2 <= Math.min(waiting, MOST_READS_PER_ROUND_TRIP)) size *= 2;
  return size;
}

const PLACEHOLDER = /\$(\d+)/g;
const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"/g;

function newShape(sqlText: string): Shape {
  const placeholders = [...sqlText.matchAll(PLACEHOLDER)].map((match) => Number(match[1]));
  const outsideQuotes = sqlText.replace(QUOTED, "").match(PLACEHOLDER)?.length ?? 0;
  return {
    sqlText,
    arity: Math.max(0, ...placeholders),
    // Kysely binds every value, so `$n` is a placeholder; one inside a quoted literal or identifier
    // would be renumbered too, so such a text is never coalesced.
    batchable: outsideQuotes === placeholders.length,
    statements: new Map(),
    waiting: [],
  };
}

/**
 * One read: its rows as json. Several: the same statement once per read, each copy's placeholders
 * moved past the ones before, and each row tagged with its read (r) and its place in that read (p);
 * the outer ORDER BY r, p states the order rather than trusting the append to keep each copy's.
 */
export function statementText(shape: Pick<Shape, "sqlText" | "arity">, reads: number): string {
  if (reads === 1) return `select row_to_json(t) as j from (${shape.sqlText}) as t`;
  const copies: string[] = [];
  for (let read = 0; read < reads; read++) {
    const offset = read * shape.arity;
    const sqlText = shape.sqlText.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
    copies.push(`select ${read} as r, row_number() over () as p, row_to_json(t) as j from (${sqlText}) as t`);
  }
  return `select r, j from (${copies.join(" union all ")}) as reads order by r, p`;
}
