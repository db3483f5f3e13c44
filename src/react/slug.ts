/**
 * "Acme Inc." -> "acme-inc": an organization's slug from its name.
 *
 * @example
 * slugify("Acme Inc."); // "acme-inc"
 * slugify("Café Zürich"); // "cafe-zurich"
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}

/** What the server takes (src/app/lib/schemas.ts slugRule says the same). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
