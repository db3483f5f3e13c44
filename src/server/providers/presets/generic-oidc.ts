import { mapOpenIdClaims, type ProviderPreset } from "../types.js";

/** Any OpenID Connect provider: every endpoint comes from <issuer>/.well-known/openid-configuration. */
export const genericOidc: ProviderPreset = {
  openid: true,
  scopes: ["openid", "email", "profile"],
  mapProfile: mapOpenIdClaims,
};
