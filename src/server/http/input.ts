import type { Context } from "hono";
import type { z } from "zod";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "./env.js";

/** `[body.email] Invalid email address; ...` — where and what, never the value that was sent. */
function describe(where: "body" | "query", error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? `${where}.${issue.path.join(".")}` : where;
      return `[${path}] ${issue.message}`;
    })
    .join("; ");
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: "body" | "query"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AuthError("VALIDATION_ERROR", { message: describe(where, result.error) });
  return result.data;
}

/** The request body, validated; a 400 VALIDATION_ERROR otherwise. */
export function readBody<S extends z.ZodType>(c: Context<AuthEnv>, schema: S): z.output<S> {
  return parse(schema, c.get("body"), "body");
}

/** What each query schema makes of an empty query string: parsed once, since it never changes. */
const emptyQueryResults = new WeakMap<z.ZodType, unknown>();

/** The query string, validated; repeated keys keep their first value. */
export function readQuery<S extends z.ZodType>(c: Context<AuthEnv>, schema: S): z.output<S> {
  if (!c.req.url.includes("?")) {
    // The common case on hot GETs (get-session): no query, so no parse per request.
    if (!emptyQueryResults.has(schema)) emptyQueryResults.set(schema, Object.freeze(parse(schema, {}, "query")));
    return emptyQueryResults.get(schema) as z.output<S>;
  }
  return parse(schema, c.req.query(), "query");
}
