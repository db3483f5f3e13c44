import { claimString, mapOpenIdClaims, type ProviderPreset } from "../types.js";

export const gitlab: ProviderPreset = {
  openid: true,
  issuer: "https://gitlab.com",
  authorizationEndpoint: "https://gitlab.com/oauth/authorize",
  tokenEndpoint: "https://gitlab.com/oauth/token",
  userInfoEndpoint: "https://gitlab.com/oauth/userinfo",
  jwksUri: "https://gitlab.com/oauth/discovery/keys",
  scopes: ["openid", "email", "profile"],
  mapProfile(claims) {
    const profile = mapOpenIdClaims(claims);
    // Quirk: GitLab's name may be empty; its username is `nickname`.
    return profile ? { ...profile, name: profile.name || (claimString(claims, "nickname") ?? "") } : null;
  },
};
