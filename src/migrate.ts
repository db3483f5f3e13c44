import { migrate } from "./cli/migrate.js";

/** `npm run migrate`: the same as `gatehouse migrate`. */
process.exitCode = await migrate(process.argv.slice(2));
