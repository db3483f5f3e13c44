import { claimString, type ProviderPreset } from "../types.js";

/** Discord is plain OAuth 2; the user comes from /users/@me. */
export const discord: ProviderPreset = {
  openid: false,
  authorizationEndpoint: "https://discord.com/oauth2/authorize",
  tokenEndpoint: "https://discord.com/api/oauth2/token",
  userInfoEndpoint: "https://discord.com/api/users/@me",
  scopes: ["identify", "email"],
  mapProfile(claims) {
    const id = claimString(claims, "id");
    if (!id) return null;
    const avatar = claimString(claims, "avatar");
    return {
      id,
      email: claimString(claims, "email"),
      // Quirk: Discord calls the email flag `verified`.
      emailVerified: claims.verified === true,
      name: claimString(claims, "global_name") ?? claimString(claims, "username") ?? "",
      // Quirk: the avatar is a hash; the image URL is built from it.
      image: avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : null,
    };
  },
};
