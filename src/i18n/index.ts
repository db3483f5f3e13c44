import type { Catalogue, MessageKey, MessageVars } from "./catalogue.js";
import { de } from "./de.js";
import { en } from "./en.js";

export type { Catalogue, CatalogueKey, MessageKey, MessageVars } from "./catalogue.js";

/** The languages Gatehouse speaks; the first is the fallback. */
export const locales = ["en", "de"] as const;
export type Locale = (typeof locales)[number];

const catalogues: Readonly<Record<Locale, Catalogue>> = { en, de };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

/** Each language's name in itself, for the language switch. */
export const localeNames: Readonly<Record<Locale, string>> = { en: "English", de: "Deutsch" };

/** Whether a string built at run time (`error.${code}`) is a key of the catalogue. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key) || Object.hasOwn(en, `${key}#other`);
}

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();
/**
 * A date and time the way the locale writes them ("Nov 25, 2026, 2:05 PM" / "25.11.2026, 14:05"),
 * in the reader's time zone, or in timeZone (mails, written on the server, say UTC).
 */
export function formatDateTime(locale: Locale, date: Date | string | number, timeZone?: string): string {
  if (timeZone) {
    return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(
      new Date(date),
    );
  }
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(date));
}

const pluralRules = new Map<Locale, Intl.PluralRules>();
function pluralCategory(locale: Locale, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/** The message for key in locale, with `{name}` placeholders filled from vars. */
export function translate(locale: Locale, key: MessageKey, vars?: MessageVars): string {
  const catalogue = catalogues[locale] as Readonly<Record<string, string>>;
  const count = vars?.count;
  let template = catalogue[key];
  if (template === undefined) {
    const variant = typeof count === "number" ? catalogue[`${key}#${pluralCategory(locale, count)}`] : undefined;
    template = variant ?? catalogue[`${key}#other`];
  }
  if (template === undefined) return key;
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export type Translate = (key: MessageKey, vars?: MessageVars) => string;

export function translator(locale: Locale): Translate {
  return (key, vars) => translate(locale, key, vars);
}

/**
 * The best supported locale for an ordered list of language tags (navigator.languages, or an
 * Accept-Language header parsed by acceptedLanguages): the first whose primary subtag we speak.
 */
export function negotiateLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (isLocale(primary)) return primary;
  }
  return locales[0];
}

/** Language tags of an Accept-Language header, most wanted first (q=0 dropped). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The language for what a request causes (its mails): the best of its Accept-Language we speak. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  return negotiateLocale(acceptedLanguages(header));
}
