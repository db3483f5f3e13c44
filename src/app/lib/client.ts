import { QueryClient } from "@tanstack/react-query";
import { type AuthClientError, createAuthClient, type Result } from "../../client/index.js";

/**
 * Headers of every API request. I18nProvider sets Accept-Language to the language on screen, so the
 * mails a request causes (verification, reset, ...) speak it even when it was chosen in the footer.
 */
export const apiHeaders: Record<string, string> = {};

/** The one client of the application, on the page's own origin. */
export const authClient = createAuthClient({ headers: apiHeaders });

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 5_000 } },
});

/** For react-query: data, or throw the {code, message} error so `query.error` carries it. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error } = await call;
  if (error) throw error;
  return data as T;
}

export type { AuthClientError };
