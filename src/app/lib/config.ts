import { useQuery } from "@tanstack/react-query";
import { authClient, unwrap } from "./client.js";

/** The server's switches (GET /app-config): which sign-in methods and screens to show. */
export interface AppConfig {
  emailAndPassword: {
    enabled: boolean;
    disableSignUp: boolean;
    minPasswordLength: number;
    maxPasswordLength: number;
    requireEmailVerification: boolean;
  };
  socialProviders: string[];
  anonymous: boolean;
  oneTapClientId: string | null;
  changeEmail: boolean;
  deleteUser: { enabled: boolean; sendDeleteAccountVerification: boolean };
  organization: { enabled: boolean; teams: boolean };
  devOutbox: boolean;
}

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
  organization: { enabled: true, teams: false },
  devOutbox: false,
};

export function useAppConfig(): AppConfig {
  const query = useQuery({
    queryKey: ["app-config"],
    queryFn: () => unwrap(authClient.$fetch<AppConfig>("/app-config", {}, { method: "GET" })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return query.data ?? fallback;
}
