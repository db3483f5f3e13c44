import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";

/** `gatehouse generate-secret`: 32 random bytes, base64url (43 characters), for AUTH_SECRET. */
export async function generateSecret(args: string[]): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  console.log(randomBytes(32).toString("base64url"));
  return 0;
}
