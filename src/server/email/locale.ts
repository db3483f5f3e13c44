import { AsyncLocalStorage } from "node:async_hooks";
import { acceptedLanguages, type Locale, locales, negotiateLocale } from "../../i18n/index.js";

/**
 * The language of the request being served, for the mails it causes. The HTTP app sets it once per
 * request from Accept-Language (app.ts), so services pass `mailLocale()` to a template without every
 * route and service signature carrying it. Outside a request (jobs, the CLI) mail is in English.
 */
const requestLocale = new AsyncLocalStorage<Locale>();

export function withRequestLocale<T>(acceptLanguage: string | null | undefined, run: () => T): T {
  return requestLocale.run(negotiateLocale(acceptedLanguages(acceptLanguage)), run);
}

export function mailLocale(): Locale {
  return requestLocale.getStore() ?? locales[0];
}
