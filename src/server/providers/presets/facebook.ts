import { claimString, type ProviderPreset } from "../types.js";

/** Facebook Login (plain OAuth 2 via the Graph API). */
export const facebook: ProviderPreset = {
  openid: false,
  authorizationEndpoint: "https://www.facebook.com/v21.0/dialog/oauth",
  tokenEndpoint: "https://graph.facebook.com/v21.0/oauth/access_token",
  // Quirk: the Graph API returns only the fields asked for, so they are named in the URL.
  userInfoEndpoint: "https://graph.facebook.com/me?fields=id,name,email,picture",
  scopes: ["email", "public_profile"],
  mapProfile(claims) {
    const id = claimString(claims, "id");
    if (!id) return null;
    const picture = claims.picture as { data?: { url?: string } } | undefined;
    return {
      id,
      email: claimString(claims, "email"),
      // Quirk: Facebook has no email_verified flag; an unverified claim keeps implicit linking off.
      emailVerified: false,
      name: claimString(claims, "name") ?? "",
      image: picture?.data?.url ?? null,
    };
  },
};
