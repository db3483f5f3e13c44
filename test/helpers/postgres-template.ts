import pg from "pg";
import type { TestProject } from "vitest/node";
import { LOWER_ALPHANUMERIC, randomString } from "../../src/server/crypto/random.js";
import { migrateToLatest, openDatabase } from "../../src/server/store/database.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL database holding the migrated schema, which test servers' databases are copied from. */
    postgresTemplate: string;
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
  const name = `gatehouse_template_${randomString(10, LOWER_ALPHANUMERIC)}`;
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
  return () => onServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
