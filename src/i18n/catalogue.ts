import type { en } from "./en.js";

/** Every key of the source catalogue, plural variants included (`members.count#one`). */
export type CatalogueKey = keyof typeof en;

/** A complete translation: the same keys as English, nothing more. */
export type Catalogue = { readonly [K in CatalogueKey]: string };

/** What callers ask for: a plural family is asked for by its stem (`members.count`). */
export type MessageKey = CatalogueKey extends infer K ? (K extends `${infer Stem}#${string}` ? Stem : K) : never;

export type MessageVars = Readonly<Record<string, string | number>>;
