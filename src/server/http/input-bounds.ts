import { invalidInput } from "../validation.js";
import type { RequestStep } from "./env.js";

/** Deeper JSON than this is no request any client sends (organization metadata included). */
export const MAX_INPUT_DEPTH = 16;
/** Longer arrays than this are refused wherever they appear. */
export const MAX_INPUT_ARRAY = 1000;
/**
 * The key that would replace an object's prototype if anything ever copied the input with
 * Object.assign or a naive merge. (`constructor` stays allowed: it is a fine resource or field name.)
 */
const PROTOTYPE_KEY = "__proto__";

function refuse(where: string, message: string): never {
  throw invalidInput([{ where, message }]);
}

/**
 * One rule for every route, before any schema: no NUL character in any string or key (PostgreSQL
 * refuses NUL in text, and no honest input holds one), no nesting deeper than MAX_INPUT_DEPTH, no
 * array longer than MAX_INPUT_ARRAY, no `__proto__` key. Iterative, so a hostile depth cannot
 * overflow the stack here. Schemas still bound each field's own length and range.
 */
export function assertInputBounds(body: unknown): void {
  const stack: [unknown, string, number][] = [[body, "body", 0]];
  while (stack.length > 0) {
    const [current, path, depth] = stack.pop()!;
    if (typeof current === "string") {
      if (current.includes("\u0000")) refuse(path, "must not contain a NUL character");
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) refuse(path, `is nested deeper than ${MAX_INPUT_DEPTH} levels`);
    if (Array.isArray(current)) {
      if (current.length > MAX_INPUT_ARRAY) refuse(path, `has more than ${MAX_INPUT_ARRAY} items`);
      for (let index = 0; index < current.length; index++) stack.push([current[index], `${path}.${index}`, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      if (key.includes("\u0000")) refuse(path, "has a key containing a NUL character");
      if (key === PROTOTYPE_KEY) refuse(path, `must not have the key "${key}"`);
      stack.push([item, `${path}.${key}`, depth + 1]);
    }
  }
}

/**
 * The request step for requests without a body: the URL. A NUL in the path or query arrives
 * percent-encoded, so the raw URL is checked for `%00` once instead of each parameter.
 */
export const checkUrlBounds: RequestStep = (c) => {
  if (/%00/i.test(c.req.url)) refuse("url", "must not contain a NUL character");
};

/** The request step for POSTs: the URL, then the body (already parsed). */
export const checkInputBounds: RequestStep = (c) => {
  checkUrlBounds(c);
  assertInputBounds(c.get("body"));
};
