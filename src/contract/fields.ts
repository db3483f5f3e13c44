import { z } from "zod";

/** Longest display name a user (or an admin for them) may set. */
export const MAX_NAME_LENGTH = 256;
/** Longest image or logo URL. */
export const MAX_IMAGE_URL_LENGTH = 2048;

/** A user's display name: any text up to MAX_NAME_LENGTH characters. */
export const userName = z.string().max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);

/** http(s) anywhere, or an inline picture: better-auth apps store `data:image/...` avatars. */
function isImageUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    if (protocol === "http:" || protocol === "https:") return true;
    return protocol === "data:" && /^data:image\//i.test(value);
  } catch {
    return false;
  }
}

/**
 * An avatar or logo: an absolute http(s) URL or a `data:image/` URL, at most MAX_IMAGE_URL_LENGTH
 * characters (the user, image included, travels in the session cookie cache). Apps put it in
 * `<img src>` and links; `javascript:`, `data:text/html` and the like must never get that far.
 */
export const imageUrl = z
  .string()
  .max(MAX_IMAGE_URL_LENGTH, `must be at most ${MAX_IMAGE_URL_LENGTH} characters`)
  .refine(isImageUrl, "must be an http(s) or data:image/ URL");

/** Offsets and limits: whole numbers PostgreSQL's integer and JavaScript both hold exactly. */
export const MAX_QUERY_INT = 2_147_483_647;

/** A non-negative whole number from a query string ("20") or JSON (20), at most `max`. */
export function queryInt(max = MAX_QUERY_INT) {
  return z
    .union([z.number(), z.string().regex(/^\d{1,10}$/, "expected a non-negative integer")])
    .transform(Number)
    .pipe(z.number().int("expected a whole number").min(0).max(max));
}
