import { parseArgs } from "node:util";
import { checkTrailOf } from "../server/audit/reading.service.js";
import { readDatabaseUrl } from "../server/environment.js";
import { withoutPassword } from "../server/startup-summary.js";
import { type OpenedDatabase, openDatabase } from "../server/store/database.js";
import type { AppConfig } from "./config-module.js";
import { type CommandIO, processIO } from "./io.js";
import { configuredDatabase } from "./setup.js";

/** What `audit.sealWithinSeconds` defaults to (server/options.ts). */
const DEFAULT_SEAL_WITHIN_SECONDS = 10;

/**
 * `gatehouse audit verify`: walks the audit trail's sealed hash chain from its anchor to its head
 * (docs/audit.md) and names the first entry that does not hold, then tells the unsealed tail. Exit 0
 * intact, 1 broken, 2 intact but an entry has waited longer than `audit.sealWithinSeconds` to be
 * sealed (no instance is sealing). Changes nothing.
 */
export async function auditCommand(
  args: string[],
  io: CommandIO = processIO,
  app: AppConfig | null = null,
): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    options: { "seal-within-seconds": { type: "string" } },
    strict: true,
    allowPositionals: true,
  });
  const sealWithin = Number(
    values["seal-within-seconds"] ?? app?.input.options?.audit?.sealWithinSeconds ?? DEFAULT_SEAL_WITHIN_SECONDS,
  );
  if (positionals.length !== 1 || positionals[0] !== "verify" || !(sealWithin > 0)) {
    io.err("usage: gatehouse audit verify [--seal-within-seconds <n>]");
    return 64;
  }
  const { database, shown }: { database: OpenedDatabase; shown: string } = app
    ? configuredDatabase(app)
    : { database: openDatabase(readDatabaseUrl(io.env)), shown: withoutPassword(readDatabaseUrl(io.env)) };
  try {
    const check = await checkTrailOf(database.db, sealWithin, new Date());
    const range = `entries ${check.anchorSeq + 1}..${check.headSeq}`;
    const waited = check.unsealed.oldestAgeSeconds;
    const tail = check.unsealed.oldestCreatedAt
      ? `${check.unsealed.count} unsealed, the oldest written ${waited.toFixed(1)} s ago`
      : "none unsealed";
    if (check.ok) {
      io.out(
        `${shown}: audit chain intact, ${check.checked} ${range}; head ${check.headSeq} ${check.headHash}; ${tail}`,
      );
      if (!check.unsealed.overdue) return 0;
      io.err(
        `${shown}: audit entries left UNSEALED longer than ${sealWithin} s: no instance is sealing, and until sealed an entry's edit or deletion goes unnoticed`,
      );
      return 2;
    }
    const bad = check.firstBad;
    const which = bad ? `entry ${bad.seq}${bad.id ? ` (id ${bad.id})` : ""}` : "an entry";
    const why = {
      edited: "does not hash to what it holds: it, or the one before it, was edited",
      missing: "is missing: deleted",
      "head-mismatch": "is not the head the chain recorded: the newest entries were changed or deleted",
    }[bad?.reason ?? "edited"];
    io.err(`${shown}: audit chain BROKEN at ${which}: ${why} (${check.checked} entries before it hold); ${tail}`);
    return 1;
  } finally {
    await database.close();
  }
}
