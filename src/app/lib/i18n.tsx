import { createContext, Fragment, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import {
  formatDateTime,
  isLocale,
  type Locale,
  type MessageKey,
  negotiateLocale,
  type Translate,
  translator,
} from "../../i18n/index.js";
import { FrameProvider } from "../../react/form-parts.js";
import { browserNavigate } from "../../react/navigate.js";
import { apiHeaders } from "./client.js";

const storageKey = "gatehouse.locale";

/** The visitor's own choice if they made one, else the browser's languages. */
function initialLocale(): Locale {
  const chosen = globalThis.localStorage?.getItem(storageKey);
  if (isLocale(chosen)) return chosen;
  return negotiateLocale(globalThis.navigator?.languages ?? []);
}

interface I18n {
  locale: Locale;
  t: Translate;
  setLocale(locale: Locale): void;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState(initialLocale);
  // Set during render, not in an effect: the first requests start before effects run.
  apiHeaders["accept-language"] = locale;
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const setLocale = useCallback((next: Locale) => {
    globalThis.localStorage?.setItem(storageKey, next);
    setLocaleState(next);
  }, []);
  const value = useMemo(() => ({ locale, t: translator(locale), setLocale }), [locale, setLocale]);
  // The shared form parts (components/ui.tsx) take their words and class names from this frame.
  const frame = useMemo(
    () => ({ t: value.t, locale, classes: "app" as const, navigate: browserNavigate }),
    [value.t, locale],
  );
  return (
    <I18nContext.Provider value={value}>
      <FrameProvider value={frame}>{children}</FrameProvider>
    </I18nContext.Provider>
  );
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useI18n needs an I18nProvider above it");
  return i18n;
}

/** The translate function of the current locale. */
export function useT(): Translate {
  return useI18n().t;
}

/**
 * A translated sentence with elements in it (links, bold names): t() leaves `{link}` for this to fill,
 * so each language orders the sentence its own way.
 */
export function withElements(text: string, elements: Readonly<Record<string, ReactNode>>): ReactNode {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence never move.
    return name && name in elements ? <Fragment key={index}>{elements[name]}</Fragment> : part;
  });
}

/** Formats a date for the screen in the current locale; "—" when there is none. */
export function useFormatDate(): (date: Date | string | null | undefined) => string {
  const { locale } = useI18n();
  return useCallback((date) => (date ? formatDateTime(locale, date) : "—"), [locale]);
}

/** Sets the document title for the screen: "<screen> · Gatehouse". */
export function usePageTitle(key: MessageKey): void {
  const t = useT();
  const title = t(key);
  const appName = t("app.name");
  useEffect(() => {
    document.title = title === appName ? appName : `${title} · ${appName}`;
  }, [title, appName]);
}
