import { runCommand } from "./cli/run.js";

/** `npm run migrate`: the same as `gatehouse migrate` (its configuration errors in words, exit 78). */
process.exitCode = await runCommand(["migrate", ...process.argv.slice(2)]);
