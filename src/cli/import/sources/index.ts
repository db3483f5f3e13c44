import type { ImportSource } from "../records.js";
import { betterAuthSource } from "./better-auth.js";

/** Each `--from` name and how it opens its `--source`. */
export const SOURCES: Record<string, (location: string) => Promise<ImportSource>> = {
  "better-auth": betterAuthSource,
};
