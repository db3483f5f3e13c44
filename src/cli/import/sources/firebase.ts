import { dateOf, type ImportSource, type SourceRecord } from "../records.js";
import { jsonDocument } from "./files.js";
import { SourceError } from "./sql-reader.js";

/** The project's scrypt cost, from its console's "Password hash parameters". */
export interface FirebaseScryptCost {
  memCost: number;
  rounds: number;
}

/** Firebase's provider ids as Gatehouse's social providers are named. */
const PROVIDERS: Record<string, string> = {
  "google.com": "google",
  "github.com": "github",
  "facebook.com": "facebook",
  "apple.com": "apple",
  "twitter.com": "twitter",
  "microsoft.com": "microsoft",
};

/**
 * `firebase auth:export users.json --format=json`: its password hashes become
 * `$firebase-scrypt$m=<memCost>,r=<rounds>$<salt>$<hash>` (the project's signer key and salt separator
 * go in the service's options, not in each hash).
 */
export function firebaseSource(cost: FirebaseScryptCost | null) {
  return async (path: string): Promise<ImportSource> => {
    const document = (await jsonDocument(path)) as { users?: unknown };
    if (!Array.isArray(document?.users)) throw new SourceError(`${path} has no "users" array (firebase auth:export)`);
    const users = document.users as Record<string, any>[];
    if (!cost && users.some((user) => user?.passwordHash)) {
      throw new SourceError(
        "the export has password hashes: give the project's --firebase-params (mem_cost and rounds)",
      );
    }
    async function* records(): AsyncIterable<SourceRecord> {
      for (const [index, user] of users.entries()) {
        const passwordHash =
          user.passwordHash && cost
            ? `$firebase-scrypt$m=${cost.memCost},r=${cost.rounds}$${user.salt ?? ""}$${user.passwordHash}`
            : null;
        yield {
          kind: "user",
          line: index + 1,
          user: {
            sourceId: String(user.localId ?? ""),
            email: user.email ?? null,
            name: user.displayName ?? null,
            emailVerified: user.emailVerified === true,
            image: user.photoUrl ?? null,
            createdAt: dateOf(user.createdAt),
            updatedAt: null,
            passwordHash,
            socialAccounts: ((user.providerUserInfo as Record<string, any>[] | undefined) ?? [])
              .filter((info) => info?.providerId && info.providerId !== "password" && info.rawId)
              .map((info) => ({
                providerId: PROVIDERS[info.providerId] ?? String(info.providerId),
                accountId: String(info.rawId),
              })),
            memberships: [],
          },
        };
      }
    }
    return { records, total: async () => users.length, close: async () => {} };
  };
}

/**
 * The cost from `--firebase-params FILE`: the console's text (`mem_cost: 14,` `rounds: 8,`) or JSON
 * (`{"memCost": 14, "rounds": 8}` or with the console's names).
 */
export function firebaseCostFrom(text: string): FirebaseScryptCost {
  const number = (...names: string[]) => {
    for (const name of names) {
      const match = new RegExp(`"?${name}"?\\s*[:=]\\s*(\\d+)`).exec(text);
      if (match) return Number(match[1]);
    }
    return Number.NaN;
  };
  const cost = { memCost: number("mem_cost", "memCost"), rounds: number("rounds") };
  if (!(cost.memCost >= 1 && cost.memCost <= 20 && cost.rounds >= 1 && cost.rounds <= 32)) {
    throw new SourceError("the Firebase parameters need mem_cost (1-20) and rounds (1-32)");
  }
  return cost;
}
