import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { type CommandIO, processIO } from "./io.js";

/** `gatehouse generate-secret`: 32 random bytes, base64url (43 characters), for AUTH_SECRET. */
export async function generateSecret(args: string[], io: CommandIO = processIO): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  io.out(randomBytes(32).toString("base64url"));
  return 0;
}
