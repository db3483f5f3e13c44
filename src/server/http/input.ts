import type { Context } from "hono";
import type { z } from "zod";
import { parseInput } from "../validation.js";
import type { AuthEnv } from "./env.js";

/** The request body, validated; a 400 VALIDATION_ERROR otherwise. */
export function readBody<S extends z.ZodType>(c: Context<AuthEnv>, schema: S): z.output<S> {
  return parseInput(schema, c.get("body"), "body");
}

/** What each query schema makes of an empty query string: parsed once, since it never changes. */
const emptyQueryResults = new WeakMap<z.ZodType, unknown>();

/** The query string, validated; repeated keys keep their first value. */
export function readQuery<S extends z.ZodType>(c: Context<AuthEnv>, schema: S): z.output<S> {
  if (!c.req.url.includes("?")) {
    // The common case on hot GETs (get-session): no query, so no parse per request.
    if (!emptyQueryResults.has(schema)) emptyQueryResults.set(schema, Object.freeze(parseInput(schema, {}, "query")));
    return emptyQueryResults.get(schema) as z.output<S>;
  }
  return parseInput(schema, c.req.query(), "query");
}
