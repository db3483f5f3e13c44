import { parseArgs } from "node:util";
import { restartWithMallocSettings } from "../malloc-settings.js";
import { readEnvironment } from "../server/environment.js";
import { startService } from "../service.js";

/** `gatehouse start`: the service, as `npm start` runs it (the process keeps running until a signal). */
export async function start(args: string[]): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  restartWithMallocSettings();
  await startService(readEnvironment());
  // Serving: the exit code is set only when the process stops.
  return 0;
}
