import type { AuthContext } from "../../context.js";
import type { ProviderTokens } from "../../providers/types.js";
import type { AccountRecord, StoredTokens } from "../../store/social-accounts.js";

/** Provider tokens as stored: each token encrypted, scopes comma separated (SPEC 3). */
export function sealTokens(ctx: AuthContext, tokens: ProviderTokens): StoredTokens {
  const seal = (value: string | null) => (value ? ctx.tokenCipher.encrypt(value) : null);
  return {
    accessToken: seal(tokens.accessToken),
    refreshToken: seal(tokens.refreshToken),
    idToken: seal(tokens.idToken),
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    scope: tokens.scopes.length > 0 ? tokens.scopes.join(",") : null,
  };
}

/** The account's tokens in plain text (a value that does not decrypt reads as absent). */
export function openTokens(ctx: AuthContext, account: AccountRecord): ProviderTokens {
  const open = (value: string | null) => (value ? ctx.tokenCipher.decrypt(value) : null);
  return {
    accessToken: open(account.accessToken),
    refreshToken: open(account.refreshToken),
    idToken: open(account.idToken),
    accessTokenExpiresAt: account.accessTokenExpiresAt,
    refreshTokenExpiresAt: account.refreshTokenExpiresAt,
    scopes: splitScopes(account.scope),
  };
}

export function splitScopes(scope: string | null): string[] {
  return scope ? scope.split(",").filter(Boolean) : [];
}

/** Scopes granted over time add up: a re-link or re-sign-in with fewer scopes keeps the earlier ones. */
export function mergeScopes(previous: string | null, granted: string[]): string[] {
  return [...new Set([...splitScopes(previous), ...granted])];
}
