import { readFileSync } from "node:fs";
import type { ImportSource } from "../records.js";
import { auth0Source } from "./auth0.js";
import { betterAuthSource } from "./better-auth.js";
import { clerkSource } from "./clerk.js";
import { firebaseCostFrom, firebaseSource } from "./firebase.js";
import { SourceError } from "./sql-reader.js";
import { supabaseSource } from "./supabase.js";

/** Source-specific flags of `gatehouse import`. */
export interface SourceFlags {
  "firebase-params"?: string;
  "firebase-mem-cost"?: string;
  "firebase-rounds"?: string;
}

/** Each `--from` name and how it opens its `--source`. */
export const SOURCES: Record<string, (location: string, flags: SourceFlags) => Promise<ImportSource>> = {
  "better-auth": betterAuthSource,
  auth0: auth0Source,
  supabase: supabaseSource,
  clerk: clerkSource,
  firebase: (location, flags) => firebaseSource(firebaseCost(flags))(location),
};

function firebaseCost(flags: SourceFlags) {
  if (flags["firebase-params"]) {
    let text: string;
    try {
      text = readFileSync(flags["firebase-params"], "utf8");
    } catch {
      throw new SourceError(`cannot read --firebase-params ${flags["firebase-params"]}`);
    }
    return firebaseCostFrom(text);
  }
  if (flags["firebase-mem-cost"] || flags["firebase-rounds"]) {
    return firebaseCostFrom(`mem_cost: ${flags["firebase-mem-cost"] ?? ""} rounds: ${flags["firebase-rounds"] ?? ""}`);
  }
  return null;
}
