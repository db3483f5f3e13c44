import { parseArgs } from "node:util";
import { readDatabaseUrl } from "../../server/environment.js";
import { migrateToLatest, openDatabase, pendingMigrations } from "../../server/store/database.js";
import { type CommandIO, processIO } from "../io.js";
import { type ImportReport, MERGE_MODES, type MergeMode, runImport } from "./importer.js";
import { formatReport } from "./report.js";
import { SOURCES } from "./sources/index.js";
import { SourceError } from "./sources/sql-reader.js";

/** How often the progress line is written, at most. */
const PROGRESS_EVERY_MS = 1000;

/**
 * `gatehouse import --from SOURCE --source FILE_OR_URL [--apply]`: reads another system's users
 * (and organizations) into DATABASE_URL. A dry run by default: the report says what would be written.
 * Running it again skips what an earlier run wrote, so an interrupted import is resumed by running it again.
 */
export async function importCommand(args: string[], io: CommandIO = processIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      from: { type: "string" },
      source: { type: "string" },
      apply: { type: "boolean" },
      merge: { type: "string" },
      "refuse-weak": { type: "boolean" },
      "firebase-params": { type: "string" },
      "firebase-mem-cost": { type: "string" },
      "firebase-rounds": { type: "string" },
    },
    strict: true,
  });
  const open = values.from ? SOURCES[values.from] : undefined;
  if (!open || !values.source) {
    io.err(
      `gatehouse import: --from (${Object.keys(SOURCES).join(", ")}) and --source (a file, or a database path or URL) are required`,
    );
    return 64;
  }
  const merge = (values.merge ?? "skip") as MergeMode;
  if (!MERGE_MODES.includes(merge)) {
    io.err(`gatehouse import: --merge is ${MERGE_MODES.join(" or ")}`);
    return 64;
  }
  const database = openDatabase(readDatabaseUrl(io.env));
  let source: Awaited<ReturnType<typeof open>> | undefined;
  try {
    source = await open(values.source, values);
    const pending = await pendingMigrations(database.db, database.dialect);
    if (values.apply) await migrateToLatest(database.db, database.dialect);
    const total = (await source.total?.()) ?? null;
    const started = Date.now();
    let said = started;
    const report = await runImport(database.db, source, {
      sourceName: values.from!,
      apply: values.apply === true,
      merge,
      refuseWeak: values["refuse-weak"] === true,
      targetReady: values.apply === true || pending.length === 0,
      progress: (report) => {
        if (Date.now() - said < PROGRESS_EVERY_MS) return;
        said = Date.now();
        (io.status ?? io.err)(progressLine(report, started, total));
      },
    });
    io.status?.(null);
    io.err(progressLine(report, started, total));
    for (const line of formatReport(report)) io.out(line);
    if (!values.apply && pending.length > 0) {
      io.out("note: DATABASE_URL is not migrated yet, so nothing in it was checked; --apply migrates it first");
    }
    return 0;
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    io.err(`gatehouse import: ${error.message}`);
    return 66;
  } finally {
    await source?.close();
    await database.close();
  }
}

const BAR_WIDTH = 30;

/**
 * `import [#########.....................] 30% 30000/100000 users read, 29950 done, 50 skipped, 4100/s, 17 s left`;
 * without the bar and the time left when the source cannot say how many users it holds.
 */
export function progressLine(report: ImportReport, started: number, total: number | null): string {
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  const done = report.usersImported + report.usersMerged + report.usersAlreadyImported;
  const skipped = report.conflicts.length + report.refused.length;
  const rate = report.usersRead / seconds;
  const counts = `${done} done, ${skipped} skipped, ${Math.round(rate)}/s`;
  if (!total) return `import: ${report.usersRead} users read, ${counts}`;
  const share = Math.min(report.usersRead / total, 1);
  const filled = Math.round(share * BAR_WIDTH);
  const left = rate > 0 ? Math.ceil((total - report.usersRead) / rate) : null;
  return `import [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${report.usersRead}/${total} users read, ${counts}${left !== null && left > 0 ? `, ${left} s left` : ""}`;
}
