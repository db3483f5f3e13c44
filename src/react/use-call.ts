import { useCallback, useState } from "react";
import type { Result } from "../client/index.js";
import type { HasCode } from "./messages.js";

/** One client call for a form: pending flag, the error it answered with, the data on success (else null). */
export function useCall<A extends unknown[], T>(call: (...args: A) => Promise<Result<T>>) {
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
