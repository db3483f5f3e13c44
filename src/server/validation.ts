import type { z } from "zod";
import { AuthError } from "./errors.js";

/**
 * The one validation error: 400 VALIDATION_ERROR whose message says where and what,
 * `[body.email] Invalid email address; [query.limit] ...`, never the value that was sent.
 */
export function invalidInput(problems: readonly { where: string; message: string }[]): AuthError {
  return new AuthError("VALIDATION_ERROR", {
    message: problems.map(({ where, message }) => `[${where}] ${message}`).join("; "),
  });
}

/** A value checked against a schema; `where` names it in the message (`body`, `query`, `body.data.image`). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidInput(
    result.error.issues.map((issue) => ({
      where: issue.path.length > 0 ? `${where}.${issue.path.join(".")}` : where,
      message: issue.message,
    })),
  );
}
