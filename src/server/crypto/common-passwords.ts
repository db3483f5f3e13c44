import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * The ~49,000 most common passwords from breach corpora (zxcvbn-ts's list, lowercase, most common
 * first): ASVS 2.1.7 asks for at least the top 3,000 to be refused. Built into a Set on first use.
 */
let common: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary["passwords-common"]);
  return common.has(password.toLowerCase());
}
