import { mapOpenIdClaims, type ProviderPreset } from "../types.js";

export const google: ProviderPreset = {
  openid: true,
  issuer: "https://accounts.google.com",
  // Quirk: Google ID tokens carry either spelling of the issuer (One Tap uses the bare host).
  idTokenIssuers: ["https://accounts.google.com", "accounts.google.com"],
  authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenEndpoint: "https://oauth2.googleapis.com/token",
  userInfoEndpoint: "https://openidconnect.googleapis.com/v1/userinfo",
  jwksUri: "https://www.googleapis.com/oauth2/v3/certs",
  scopes: ["openid", "email", "profile"],
  authorizationParams: (config) => ({
    include_granted_scopes: "true",
    // Quirk: Google issues a refresh token only with access_type=offline (and again only with prompt=consent).
    ...(config.accessType ? { access_type: config.accessType } : {}),
  }),
  mapProfile: mapOpenIdClaims,
};
