import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { serviceEndpoints } from "../../contract/endpoints/index.js";
import { DEFAULT_ROLE_TABLE, roleTableJson } from "../../contract/roles.js";
import { authClient, unwrap } from "./client.js";

/** The server's switches (GET /app-config): which sign-in methods and screens to show. */
export type AppConfig = z.output<typeof serviceEndpoints.appConfig.reply>;

const fallback: AppConfig = {
  emailAndPassword: {
    enabled: true,
    disableSignUp: false,
    minPasswordLength: 8,
    maxPasswordLength: 128,
    requireEmailVerification: false,
  },
  socialProviders: [],
  anonymous: false,
  oneTapClientId: null,
  changeEmail: false,
  deleteUser: { enabled: false, sendDeleteAccountVerification: false },
  organization: { enabled: true, teams: false, roles: roleTableJson(DEFAULT_ROLE_TABLE) },
  twoFactor: { enabled: false, otp: false },
  magicLink: false,
  emailOTP: false,
  emailOTPLength: 6,
  passkey: false,
  scim: false,
  securityActivity: false,
  audit: { enabled: false, ownerRole: "owner" },
  devOutbox: false,
  sso: false,
  organizationWebhooks: false,
  apiKeys: false,
  oauthProvider: false,
};

export function useAppConfig(): AppConfig {
  const query = useQuery({
    queryKey: ["app-config"],
    queryFn: () => unwrap(authClient.$fetch<AppConfig>("/app-config", {}, { method: "GET" })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return query.data ?? fallback;
}
