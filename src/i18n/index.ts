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

/**
 * Formatters by locale and time zone, built once: each new Intl.DateTimeFormat builds ICU formatters in
 * malloc'd memory that V8 barely counts, so one per mail left megabytes of malloc behind under mail
 * load (bench/README.md, "What mail and webhooks cost in memory").
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * A date and time the way the locale writes them ("Nov 25, 2026, 2:05 PM" / "25.11.2026, 14:05"),
 * in the reader's time zone, or in timeZone (mails, written on the server, say UTC).
 */
export function formatDateTime(locale: Locale, date: Date | string | number, timeZone?: string): string {
  const when = new Date(date);
  if (timeZone === "UTC") {
    const written = formatUtc(locale, when);
    if (written !== null) return written;
  }
  const key = timeZone ? `${locale} ${timeZone}` : locale;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
    // Time zones come from code (mails say "UTC"), not from requests: the map stays a few entries.
    dateFormats.set(key, format);
  }
  return format.format(when);
}

const MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/**
 * A UTC date as Intl writes it for en and de (dateStyle medium, timeStyle short; i18n.test.ts
 * checks them against Intl), without Intl: a server's first Intl.DateTimeFormat pages in the node
 * binary's ICU data and grows malloc (bench/README.md has the figures), for one line of a new-device
 * or invitation mail. Null (Intl then) for another locale, an invalid date or a year outside 1000-9999.
 */
function formatUtc(locale: Locale, date: Date): string | null {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return null;
  const day = date.getUTCDate();
  const hours = date.getUTCHours();
  const minutes = two(date.getUTCMinutes());
  if (locale === "en") {
    const hour = hours % 12 || 12;
    return `${MONTHS_EN[date.getUTCMonth()]} ${day}, ${year}, ${hour}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
  }
  if (locale === "de") return `${two(day)}.${two(date.getUTCMonth() + 1)}.${year}, ${two(hours)}:${minutes}`;
  return null;
}

const pluralRules = new Map<Locale, Intl.PluralRules>();
/**
 * English and German share one plural rule for whole numbers: "one" for 1 and -1, "other" for the
 * rest, as Intl.PluralRules says (i18n.test.ts). Written out because a server's first
 * Intl.PluralRules pages in the binary's ICU data (bench/README.md) for a mail's "5 minutes";
 * fractions, which Intl rounds first, still go to Intl.
 */
function pluralCategory(locale: Locale, count: number): string {
  if ((locale === "en" || locale === "de") && Number.isInteger(count)) return Math.abs(count) === 1 ? "one" : "other";
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
