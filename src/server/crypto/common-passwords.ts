import { createRequire } from "node:module";
import type * as LanguageCommon from "@zxcvbn-ts/language-common";

/**
 * The ~49,000 most common passwords from breach corpora (zxcvbn-ts's list, lowercase, most common
 * first): ASVS 2.1.7 asks for at least the top 3,000 to be refused. Decompressing the dictionaries
 * is slow and large (bench/README.md, lazy loads), so they load at the first password check.
 */
let common: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  if (!common) {
    const { dictionary } = createRequire(import.meta.url)("@zxcvbn-ts/language-common") as typeof LanguageCommon;
    common = new Set(dictionary["passwords-common"]);
  }
  return common.has(password.toLowerCase());
}
