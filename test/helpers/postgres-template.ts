import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { LOWER_ALPHANUMERIC, randomString } from "../../src/server/crypto/random.js";
import { migrateToLatest, openDatabase } from "../../src/server/store/database.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL database holding the migrated schema, which test servers' databases are copied from. */
    postgresTemplate: string;
    /** The name every test database of this run starts with: they are dropped after the run. */
    postgresTestPrefix: string;
  }
}

async function onServer(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/**
 * Migrates one database before the postgres project runs: a test server's database is then a copy
 * of it (CREATE DATABASE ... TEMPLATE), far quicker than migrating a new one for every server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("the postgres project needs TEST_DATABASE_URL");
  // The start time in the names lets a later run drop what a killed one left (drop-test-databases.mjs).
  const run = `${Date.now().toString(36).padStart(8, "0")}_${randomString(8, LOWER_ALPHANUMERIC)}`;
  const name = `gatehouse_template_${run}`;
  await onServer(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const opened = openDatabase(url.toString());
  try {
    await migrateToLatest(opened.db, opened.dialect);
  } finally {
    // A template takes no copies while anyone is connected to it.
    await opened.close();
  }
  project.provide("postgresTemplate", name);
  const testPrefix = `gatehouse_test_${run}_`;
  project.provide("postgresTestPrefix", testPrefix);
  // Test files leave their databases; a process of its own drops them once the run is over, with
  // this run's template, so the run does not wait on a checkpoint per database.
  return async () => dropDetached(adminUrl, [testPrefix, name]);
}

function dropDetached(adminUrl: string, prefixes: string[]): void {
  const script = fileURLToPath(new URL("./drop-test-databases.mjs", import.meta.url));
  spawn(process.execPath, [script, adminUrl, ...prefixes], { detached: true, stdio: "ignore" }).unref();
}
