/**
 * Bulk filler rows for the scale and churn benches: generated in this process and streamed into
 * PostgreSQL with `COPY ... FROM STDIN` through psql (pg-copy-streams is not a dependency), or into
 * SQLite with one prepared insert in one transaction. Indexes (other than primary keys) are dropped
 * before and built after, as a restore does: building a 10^7-row index once is far cheaper than
 * inserting into it 10^7 times.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";

/** How many rows of each kind a database of `sessions` sessions gets (bench/README.md, "Ten million"). */
export interface Shape {
  sessions: number;
  users: number;
  organizations: number;
  /** Organizations of `largeOrganizationSize` members (the first ones). */
  largeOrganizations: number;
  largeOrganizationSize: number;
  invitations: number;
  verifications: number;
}

export function shapeFor(sessions: number, largeOrganizationSize = 10_000): Shape {
  return {
    sessions,
    // At least enough users for the large organizations, so the deep page is the same depth at both sizes.
    users: Math.max(Math.round(sessions / 10), largeOrganizationSize),
    organizations: Math.max(Math.round(sessions / 100), 10),
    largeOrganizations: 3,
    largeOrganizationSize,
    invitations: Math.round(sessions / 10),
    verifications: Math.round(sessions / 10),
  };
}

/** Zero-padded so ids (text primary keys) arrive in index order. */
const pad = (n: number) => String(n).padStart(10, "0");
export const userId = (n: number) => `su${pad(n)}`;
export const organizationId = (n: number) => `so${pad(n)}`;

type Value = string | number | boolean | Date | null;
interface TableLoad {
  table: string;
  columns: string[];
  count: number;
  row(n: number): Value[];
}

/** 32 random bytes as hex per call, drawn from a pooled buffer (one randomBytes call per 8,192 rows). */
function tokenHashes(): () => string {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 32 > pool.length) {
      pool = randomBytes(32 * 8192);
      at = 0;
    }
    at += 32;
    return pool.toString("hex", at - 32, at);
  };
}

/** The tables in load order; every row is live (nothing for housekeeping to prune). */
export function tableLoads(shape: Shape, now = new Date()): TableLoad[] {
  const t = now.getTime();
  const hash = tokenHashes();
  const U = shape.users;
  const O = shape.organizations;
  const large = shape.largeOrganizations * shape.largeOrganizationSize;
  const small = O - shape.largeOrganizations;
  const at = (ms: number) => new Date(t + ms);
  return [
    {
      table: "user",
      columns: [
        "id",
        "name",
        "email",
        "emailVerified",
        "isAnonymous",
        "role",
        "banned",
        "createdAt",
        "updatedAt",
        "twoFactorEnabled",
      ],
      count: U,
      row: (n) => [userId(n), `Scale ${n}`, `su${n}@scale.example`, true, false, "user", false, at(-n), now, false],
    },
    {
      table: "account",
      columns: ["id", "accountId", "providerId", "userId", "password", "createdAt", "updatedAt"],
      count: U,
      row: (n) => [
        `sa${pad(n)}`,
        userId(n),
        "credential",
        userId(n),
        "$argon2id$v=19$m=19456,t=2,p=1$c2NhbGU$x",
        now,
        now,
      ],
    },
    {
      table: "session",
      columns: [
        "id",
        "tokenHash",
        "userId",
        "expiresAt",
        "ipAddress",
        "userAgent",
        "createdAt",
        "updatedAt",
        "signInMethod",
        "lastActiveAt",
      ],
      count: shape.sessions,
      // Expiries spread over the next week, as a 7-day session lifetime leaves them.
      row: (n) => [
        `ss${pad(n)}`,
        hash(),
        userId(1 + (n % U)),
        at(3_600_000 + (n % 604_800) * 1000),
        "10.0.0.1",
        "scale-bench",
        now,
        now,
        "email",
        now,
      ],
    },
    {
      table: "organization",
      columns: ["id", "name", "slug", "createdAt"],
      count: O,
      row: (n) => [organizationId(n), `Scale org ${n}`, `scale-${n}`, at(n)],
    },
    {
      table: "member",
      columns: ["id", "organizationId", "userId", "role", "createdAt"],
      // The large organizations' members first, then every user a member of one small organization.
      count: large + (small > 0 ? U : 0),
      row: (n) => {
        if (n <= large) {
          const i = (n - 1) % shape.largeOrganizationSize;
          const org = 1 + Math.floor((n - 1) / shape.largeOrganizationSize);
          return [
            `sm${pad(n)}`,
            organizationId(org),
            userId(1 + ((i + org * 7) % U)),
            i === 0 ? "owner" : "member",
            at(i),
          ];
        }
        const u = n - large;
        return [
          `sm${pad(n)}`,
          organizationId(shape.largeOrganizations + 1 + (u % small)),
          userId(u),
          u <= small ? "owner" : "member",
          at(u),
        ];
      },
    },
    {
      table: "invitation",
      columns: ["id", "organizationId", "email", "role", "status", "inviterId", "expiresAt", "createdAt", "sendCount"],
      count: shape.invitations,
      row: (n) => [
        `si${pad(n)}`,
        organizationId(1 + (n % O)),
        `invitee${n}@scale.example`,
        "member",
        "pending",
        userId(1 + (n % U)),
        at(172_800_000),
        now,
        1,
      ],
    },
    {
      table: "verification",
      columns: ["id", "identifier", "value", "expiresAt", "createdAt", "updatedAt"],
      count: shape.verifications,
      row: (n) => [`sv${pad(n)}`, `scale-verification-${n}`, hash(), at(3_600_000), now, now],
    },
  ];
}

function csvValue(value: Value): string {
  if (value === null) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "t" : "f";
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Runs statements on one connection. */
async function onConnection<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * The statements that recreate the indexes and unique constraints of `tables` (primary keys stay),
 * after dropping them. Foreign keys stay too: the load runs with session_replication_role = replica,
 * which skips their checks (the rows are generated consistent).
 */
async function dropIndexes(client: pg.Client, tables: string[]): Promise<string[]> {
  const restore: string[] = [];
  const { rows: constraints } = await client.query(
    `select c.conname, c.conrelid::regclass::text as tbl, pg_get_constraintdef(c.oid) as def
       from pg_constraint c
      where c.contype = 'u' and c.conrelid::regclass::text = any($1)
        and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = c.conindid)`,
    [tables.map((t) => `"${t}"`).concat(tables)],
  );
  for (const c of constraints) {
    await client.query(`alter table ${c.tbl} drop constraint "${c.conname}"`);
    restore.push(`alter table ${c.tbl} add constraint "${c.conname}" ${c.def}`);
  }
  const { rows: indexes } = await client.query(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i
      where i.indrelid::regclass::text = any($1) and not i.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables.map((t) => `"${t}"`).concat(tables)],
  );
  for (const i of indexes) {
    await client.query(`drop index ${i.name}`);
    restore.push(i.def);
  }
  return restore;
}

function copyInto(url: string, load: TableLoad): Promise<void> {
  return new Promise((resolve, reject) => {
    const columns = load.columns.map((c) => `"${c}"`).join(", ");
    const psql = spawn(
      "psql",
      [
        url,
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "-c",
        "set session_replication_role = replica",
        "-c",
        `copy "${load.table}" (${columns}) from stdin (format csv)`,
      ],
      { stdio: ["pipe", "ignore", "pipe"] },
    );
    let stderr = "";
    psql.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    psql.on("error", reject);
    psql.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`COPY ${load.table}: psql ${code} ${stderr}`)),
    );
    let n = 1;
    const write = () => {
      while (n <= load.count) {
        const lines: string[] = [];
        const end = Math.min(load.count, n + 4999);
        for (; n <= end; n++) lines.push(load.row(n).map(csvValue).join(","));
        if (!psql.stdin.write(`${lines.join("\n")}\n`)) {
          psql.stdin.once("drain", write);
          return;
        }
      }
      psql.stdin.end();
    };
    write();
  });
}

/** Loads the shape into a migrated PostgreSQL database, logging the seconds each step took. */
export async function loadPostgres(url: string, shape: Shape, log: (line: string) => void): Promise<void> {
  const loads = tableLoads(shape);
  const tables = loads.map((l) => l.table);
  const restore = await onConnection(url, (client) => dropIndexes(client, tables));
  for (const load of loads) {
    const started = Date.now();
    await copyInto(url, load);
    log(
      `  COPY ${load.table}: ${load.count.toLocaleString("en")} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  await onConnection(url, async (client) => {
    await client.query("set maintenance_work_mem = '512MB'");
    const started = Date.now();
    for (const statement of restore) await client.query(statement);
    log(`  ${restore.length} indexes and unique constraints built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The organization insert trigger was skipped with the foreign keys: each organization's version row.
    await client.query(
      `insert into "memberListVersion" ("organizationId", version) select id, 1 from organization on conflict do nothing`,
    );
    const vacuumed = Date.now();
    // What autovacuum would have done by the time such a table serves traffic: hint bits, visibility map, statistics.
    await client.query("vacuum (analyze)");
    log(`  vacuum (analyze) in ${((Date.now() - vacuumed) / 1000).toFixed(1)} s`);
  });
}

/** The same into a migrated SQLite file. */
export function loadSqlite(path: string, shape: Shape, log: (line: string) => void): void {
  const db = new Database(path);
  try {
    db.pragma("foreign_keys = off");
    db.pragma("synchronous = off");
    const loads = tableLoads(shape);
    const tables = loads.map((l) => l.table);
    const indexes = db
      .prepare(
        `select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${tables.map(() => "?").join(",")})`,
      )
      .all(...tables) as { name: string; sql: string }[];
    for (const index of indexes) db.exec(`drop index "${index.name}"`);
    for (const load of loads) {
      const started = Date.now();
      const insert = db.prepare(
        `insert into "${load.table}" (${load.columns.map((c) => `"${c}"`).join(", ")}) values (${load.columns.map(() => "?").join(", ")})`,
      );
      const toSqlite = (v: Value) => (v instanceof Date ? v.toISOString() : typeof v === "boolean" ? (v ? 1 : 0) : v);
      for (let n = 1; n <= load.count; n += 50_000) {
        const end = Math.min(load.count, n + 49_999);
        db.transaction(() => {
          for (let i = n; i <= end; i++) insert.run(...load.row(i).map(toSqlite));
        })();
      }
      log(
        `  insert ${load.table}: ${load.count.toLocaleString("en")} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const started = Date.now();
    for (const index of indexes) db.exec(index.sql);
    db.exec(`insert or ignore into "memberListVersion" ("organizationId", version) select id, 1 from organization`);
    db.exec("analyze");
    log(`  ${indexes.length} indexes built and analyzed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    db.close();
  }
}
