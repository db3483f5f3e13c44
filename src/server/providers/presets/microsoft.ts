import { claimString, mapOpenIdClaims, type ProviderConfig, type ProviderPreset } from "../types.js";

/**
 * Microsoft Entra ID. Quirk: with the multi-tenant "common" endpoint the ID token's issuer names the
 * user's own tenant, so ID tokens validate only when `tenantId` (or `issuer`) names one tenant.
 */
export function microsoft(config: ProviderConfig): ProviderPreset {
  const tenant = typeof config.tenantId === "string" ? config.tenantId : "common";
  const base = `https://login.microsoftonline.com/${tenant}`;
  return {
    openid: true,
    issuer: `${base}/v2.0`,
    authorizationEndpoint: `${base}/oauth2/v2.0/authorize`,
    tokenEndpoint: `${base}/oauth2/v2.0/token`,
    userInfoEndpoint: "https://graph.microsoft.com/oidc/userinfo",
    jwksUri: `${base}/discovery/v2.0/keys`,
    scopes: ["openid", "email", "profile", "offline_access"],
    mapProfile(claims) {
      const profile = mapOpenIdClaims(claims);
      if (!profile) return null;
      // Quirk: Entra does not send email_verified; work accounts may carry the address only in preferred_username.
      return { ...profile, email: profile.email ?? claimString(claims, "preferred_username") };
    },
  };
}
