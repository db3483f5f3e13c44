import { parseArgs } from "node:util";
import { readDatabaseUrl } from "../server/environment.js";
import { withoutPassword } from "../server/startup-summary.js";
import { verifyAuditChain } from "../server/store/audit-trail.js";
import { type OpenedDatabase, openDatabase } from "../server/store/database.js";
import type { AppConfig } from "./config-module.js";
import { type CommandIO, processIO } from "./io.js";
import { configuredDatabase } from "./setup.js";

/**
 * `gatehouse audit verify`: walks the audit trail's hash chain from its anchor to its head (docs/audit.md)
 * and names the first entry that does not hold. Exit 0 intact, 1 broken. Changes nothing.
 */
export async function auditCommand(
  args: string[],
  io: CommandIO = processIO,
  app: AppConfig | null = null,
): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  if (positionals.length !== 1 || positionals[0] !== "verify") {
    io.err("usage: gatehouse audit verify");
    return 64;
  }
  const { database, shown }: { database: OpenedDatabase; shown: string } = app
    ? configuredDatabase(app)
    : { database: openDatabase(readDatabaseUrl(io.env)), shown: withoutPassword(readDatabaseUrl(io.env)) };
  try {
    const check = await verifyAuditChain(database.db);
    const range = `entries ${check.anchorSeq + 1}..${check.headSeq}`;
    if (check.ok) {
      io.out(`${shown}: audit chain intact, ${check.checked} ${range}; head ${check.headSeq} ${check.headHash}`);
      return 0;
    }
    const bad = check.firstBad;
    const which = bad ? `entry ${bad.seq}${bad.id ? ` (id ${bad.id})` : ""}` : "an entry";
    const why = {
      edited: "does not hash to what it holds: it, or the one before it, was edited",
      missing: "is missing: deleted",
      "head-mismatch": "is not the head the chain recorded: the newest entries were changed or deleted",
    }[bad?.reason ?? "edited"];
    io.err(`${shown}: audit chain BROKEN at ${which}: ${why} (${check.checked} entries before it hold)`);
    return 1;
  } finally {
    await database.close();
  }
}
