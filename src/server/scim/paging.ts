import { ScimError } from "./errors.js";

/** The most resources one list answers (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 100;

/** SCIM's 1-based startIndex and count (RFC 7644 section 3.4.2.4), bounded. */
export function pageOf(query: { startIndex?: string; count?: string }): { startIndex: number; count: number } {
  const number = (raw: string | undefined, fallback: number) => {
    if (raw === undefined || raw === "") return fallback;
    if (!/^-?\d{1,9}$/.test(raw.trim()))
      throw new ScimError(400, "startIndex and count must be integers", "invalidValue");
    return Number(raw);
  };
  // Below 1 means 1, a negative count means 0 and a larger one the most a page holds (the RFC's words).
  const startIndex = Math.max(1, number(query.startIndex, 1));
  const count = Math.min(MAX_RESULTS, Math.max(0, number(query.count, MAX_RESULTS)));
  return { startIndex, count };
}
