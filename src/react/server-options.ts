import { useEffect, useState } from "react";
import type { z } from "zod";
import type { AuthClient } from "../client/index.js";
import type { serviceEndpoints } from "../contract/endpoints/index.js";
import { useAuthClient } from "./provider.js";

/** The server's public switches (GET /app-config): which sign-in methods to offer. */
export type ServerOptions = z.output<typeof serviceEndpoints.appConfig.reply>;

const asked = new WeakMap<AuthClient, Promise<ServerOptions | null>>();

/**
 * Asked once per client; null until the answer comes (or when the server does not give one).
 *
 * @example
 * function SignUpLink() {
 *   const options = useServerOptions();
 *   return options?.emailAndPassword.disableSignUp === false ? <a href="/sign-up">Create an account</a> : null;
 * }
 */
export function useServerOptions(): ServerOptions | null {
  const client = useAuthClient();
  const [options, setOptions] = useState<ServerOptions | null>(null);
  useEffect(() => {
    let answer = asked.get(client);
    if (!answer) {
      answer = client.$fetch<ServerOptions>("/app-config", {}, { method: "GET" }).then(({ data }) => data ?? null);
      asked.set(client, answer);
    }
    let current = true;
    void answer.then((value) => current && setOptions(value));
    return () => {
      current = false;
    };
  }, [client]);
  return options;
}
