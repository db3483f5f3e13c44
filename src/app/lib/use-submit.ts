import { useCallback, useState } from "react";
import type { Result } from "../../client/index.js";
import { sameOriginPath } from "../../client/safe-redirect.js";
import type { HasCode } from "./messages.js";

/** Runs one client call for a form: pending flag, the error it answered with, and the data on success. */
export function useSubmit<A extends unknown[], T>(call: (...args: A) => Promise<Result<T>>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<HasCode | null>(null);
  const run = useCallback(
    async (...args: A): Promise<T | null> => {
      setPending(true);
      setError(null);
      try {
        const { data, error } = await call(...args);
        if (error) setError(error);
        return error ? null : (data as T);
      } finally {
        setPending(false);
      }
    },
    [call],
  );
  return { run, pending, error, setError };
}

/** Only same-site paths are followed after sign-in (`?redirectTo=/accept-invitation/...`). */
export function safeNextPath(value: string | null, fallback = "/"): string {
  return sameOriginPath(value, window.location.origin, fallback);
}
