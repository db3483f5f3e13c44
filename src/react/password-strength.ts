import type { MessageKey } from "../i18n/index.js";

/**
 * The password meter's judgement. Refusals match the server's (services/credentials.ts): shorter than
 * the minimum, or on the common-password list it uses (@zxcvbn-ts/language-common, compared in
 * lowercase). Above that bar the score is a rough guess at the search space (length × character
 * variety), which the server does not check: it only tells a user how far past the bar they are.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  score: StrengthScore;
  /** The catalogue key of the judgement (`{min}` fills the too-short one). */
  label: (typeof strengthLabels)[keyof typeof strengthLabels];
  /** True when the server would refuse this password. */
  refused: boolean;
}

const strengthLabels = {
  tooShort: "password.strength.tooShort",
  tooCommon: "password.strength.tooCommon",
  weak: "password.strength.weak",
  fair: "password.strength.fair",
  good: "password.strength.good",
  strong: "password.strength.strong",
} as const satisfies Record<string, MessageKey>;

let common: Promise<Set<string>> | null = null;

/** The list is large (~49,000 words): loaded on first use, in its own chunk. */
export function loadCommonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"] as string[]),
  );
  return common;
}

function searchSpaceBits(password: string): number {
  const chars = Array.from(password);
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  const pool = [26, 26, 10, 33].reduce((sum, size, i) => sum + (classes[i]!.test(password) ? size : 0), 0);
  // Repeated characters add little: count each distinct one fully and repeats at a quarter.
  const distinct = new Set(chars).size;
  const effectiveLength = distinct + (chars.length - distinct) / 4;
  return effectiveLength * Math.log2(Math.max(pool, 2));
}

export function judgePassword(password: string, min: number, commonPasswords: Set<string> | null): Strength {
  if (password.length < min) return { score: 0, label: strengthLabels.tooShort, refused: true };
  if (commonPasswords?.has(password.toLowerCase())) return { score: 0, label: strengthLabels.tooCommon, refused: true };
  const bits = searchSpaceBits(password);
  if (bits < 40) return { score: 1, label: strengthLabels.weak, refused: false };
  if (bits < 60) return { score: 2, label: strengthLabels.fair, refused: false };
  if (bits < 80) return { score: 3, label: strengthLabels.good, refused: false };
  return { score: 4, label: strengthLabels.strong, refused: false };
}
