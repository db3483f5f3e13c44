import { claimString, type ProviderPreset } from "../types.js";

interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** GitHub is plain OAuth 2 (no ID token, no idToken sign-in). */
export const github: ProviderPreset = {
  openid: false,
  authorizationEndpoint: "https://github.com/login/oauth/authorize",
  tokenEndpoint: "https://github.com/login/oauth/access_token",
  userInfoEndpoint: "https://api.github.com/user",
  scopes: ["read:user", "user:email"],
  async fetchUserInfo({ userInfoEndpoint, getJson }) {
    const user = (await getJson(userInfoEndpoint)) as Record<string, unknown>;
    // Quirk: /user shows only a public email and never says whether it is verified; /user/emails does.
    const emails = (await getJson(new URL("/user/emails", userInfoEndpoint).toString())) as GithubEmail[];
    const chosen = Array.isArray(emails) ? (emails.find((e) => e.primary) ?? emails[0]) : undefined;
    return { ...user, email: chosen?.email ?? user.email, email_verified: chosen?.verified ?? false };
  },
  mapProfile(claims) {
    const id = claimString(claims, "id");
    if (!id) return null;
    return {
      id,
      email: claimString(claims, "email"),
      emailVerified: claims.email_verified === true,
      name: claimString(claims, "name") ?? claimString(claims, "login") ?? "",
      image: claimString(claims, "avatar_url"),
    };
  },
};
