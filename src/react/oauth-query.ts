/**
 * The authorization request the OAuth provider hands its login and consent pages: the signed
 * parameters of the page's query (`sig`, the names listed in `ba_param`, and `ba_param` itself), as
 * better-auth's oauthProviderClient sends it back in `oauth_query`. Null when the page has none.
 * Anything the page added besides (`redirectTo`, say) is left out: the server would drop it anyway.
 *
 * @example
 * const oauthQuery = signedOAuthQuery(window.location.search);
 * if (oauthQuery) await client.oauth2.continue({ oauth_query: oauthQuery }); // the client follows the answer
 */
export function signedOAuthQuery(search: string | URLSearchParams): string | null {
  const params = new URLSearchParams(search);
  const names = new Set(params.getAll("ba_param"));
  if (!params.has("sig") || names.size === 0) return null;
  const signed = new URLSearchParams();
  for (const [key, value] of params) if (key === "sig" || names.has(key)) signed.append(key, value);
  return signed.toString();
}

/**
 * The signed query of the page the browser is on, if any.
 *
 * @example
 * <SignIn oauthQuery={pageOAuthQuery()} />
 */
export function pageOAuthQuery(): string | null {
  return typeof window === "undefined" ? null : signedOAuthQuery(window.location.search);
}
