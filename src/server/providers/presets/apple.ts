import { mapOpenIdClaims, type ProviderPreset } from "../types.js";

/**
 * Sign in with Apple. Quirks: the client secret is a short-lived JWT the app signs with its Apple key
 * (configure it as clientSecret); asking for name or email forces response_mode=form_post, so the
 * callback arrives as a POST; there is no user-info endpoint, so everything comes from the ID token.
 */
export const apple: ProviderPreset = {
  openid: true,
  issuer: "https://appleid.apple.com",
  authorizationEndpoint: "https://appleid.apple.com/auth/authorize",
  tokenEndpoint: "https://appleid.apple.com/auth/token",
  jwksUri: "https://appleid.apple.com/auth/keys",
  scopes: ["openid", "email", "name"],
  responseMode: "form_post",
  mapProfile(claims) {
    const profile = mapOpenIdClaims(claims);
    // Quirk: Apple sends no name claim in the ID token; the name comes once, in the first callback's `user` field.
    return profile ? { ...profile, name: profile.name || "" } : null;
  },
};
