/**
 * The password meter's judgement. Refusals match the server's (services/credentials.ts): shorter than
 * the minimum, or on the common-password list it uses (@zxcvbn-ts/language-common, compared in
 * lowercase). Above that bar the score is a rough guess at the search space (length × character
 * variety), which the server does not check: it only tells a user how far past the bar they are.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  score: StrengthScore;
  label: string;
  /** True when the server would refuse this password. */
  refused: boolean;
}

export const strengthLabels = {
  tooShort: (min: number) => `Too short: use at least ${min} characters.`,
  tooCommon: "Too common: this password is on lists attackers try first.",
  weak: "Weak",
  fair: "Fair",
  good: "Good",
  strong: "Strong",
};

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
  if (password.length < min) return { score: 0, label: strengthLabels.tooShort(min), refused: true };
  if (commonPasswords?.has(password.toLowerCase())) return { score: 0, label: strengthLabels.tooCommon, refused: true };
  const bits = searchSpaceBits(password);
  if (bits < 40) return { score: 1, label: strengthLabels.weak, refused: false };
  if (bits < 60) return { score: 2, label: strengthLabels.fair, refused: false };
  if (bits < 80) return { score: 3, label: strengthLabels.good, refused: false };
  return { score: 4, label: strengthLabels.strong, refused: false };
}
