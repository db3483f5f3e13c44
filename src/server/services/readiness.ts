import type { AuthContext } from "../context.js";
import { databaseAnswers } from "../store/database.js";

/** Whether the database answers a trivial query (the readiness probe). */
export function databaseIsReady(ctx: AuthContext): Promise<boolean> {
  return databaseAnswers(ctx.db);
}
