import { createRequire } from "node:module";
import type * as LanguageCommon from "@zxcvbn-ts/language-common";

/**
 * The ~49,000 most common passwords from breach corpora (zxcvbn-ts's list, lowercase, most common
 * first): ASVS 2.1.7 asks for at least the top 3,000 to be refused. Decompressing the dictionaries
 * is slow and large (bench/README.md, lazy loads), so they load at the first password check.
 *
 * Kept as one sorted, line-separated string searched by bisection, and the package's modules (their
 * source and the other dictionaries) dropped from the require cache: a quarter of the heap a Set of
 * the list held alongside the package (bench/README.md, "Memory on Node 20, 22 and 24").
 */
let common: string | null = null;

function loadList(): string {
  const require = createRequire(import.meta.url);
  const { dictionary } = require("@zxcvbn-ts/language-common") as typeof LanguageCommon;
  const list = `\n${[...new Set(dictionary["passwords-common"])].sort().join("\n")}\n`;
  for (const path of Object.keys(require.cache)) if (path.includes("@zxcvbn-ts")) delete require.cache[path];
  return list;
}

export function isCommonPassword(password: string): boolean {
  // A line break would let one password match two neighbouring entries.
  if (password === "" || password.includes("\n")) return false;
  common ??= loadList();
  return bisect(common, password.toLowerCase());
}

/** Whether `word` is a line of `list` ("\n"-separated, sorted, with a "\n" at each end). */
function bisect(list: string, word: string): boolean {
  let low = 0; // a "\n" at or before the first candidate line
  let high = list.length - 1; // the "\n" after the last candidate line
  while (low < high) {
    const start = list.lastIndexOf("\n", (low + high) >> 1);
    if (start === high) return false;
    const end = list.indexOf("\n", start + 1);
    const line = list.slice(start + 1, end);
    if (line === word) return true;
    if (line < word) low = end;
    else high = start;
  }
  return false;
}
