// Drops a test run's PostgreSQL databases after the run, detached from it (test/helpers/postgres-template.ts).
// Every DROP DATABASE waits for a checkpoint, which flushes whatever else was written: 0.5-2 s each on
// a busy machine, which no test needs to wait for. Also drops what runs that were killed left behind.
//   node drop-test-databases.mjs <admin url> <name prefix>...
import pg from "pg";

const [adminUrl, ...prefixes] = process.argv.slice(2);
/** A run names its databases `gatehouse_{test,template}_<start time, base 36>_...`; none runs this long. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;
const STALE = /^gatehouse_(?:test|template)_([0-9a-z]{8})_/;

function wanted(name) {
  if (prefixes.some((prefix) => name.startsWith(prefix))) return true;
  const started = STALE.exec(name)?.[1];
  return started !== undefined && Date.now() - Number.parseInt(started, 36) > STALE_AFTER_MS;
}

const lister = new pg.Client({ connectionString: adminUrl });
await lister.connect();
const { rows } = await lister.query("SELECT datname FROM pg_database WHERE datname LIKE 'gatehouse\\_%'");
await lister.end();
// Templates last: nothing may be copied from one while it goes.
const names = rows
  .map((row) => row.datname)
  .filter(wanted)
  .sort((a, b) => Number(a.startsWith("gatehouse_test_")) - Number(b.startsWith("gatehouse_test_")));

async function dropper() {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let name = names.pop(); name !== undefined; name = names.pop()) {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
}
await Promise.all(Array.from({ length: 4 }, dropper));
