import { isLocale, localeNames, locales } from "../../i18n/index.js";
import { useI18n } from "../lib/i18n.js";
import { type Theme, themes, useTheme } from "../lib/theme.js";
import { Select } from "./ui.js";

const themeKeys = {
  system: "preferences.theme.system",
  light: "preferences.theme.light",
  dark: "preferences.theme.dark",
} as const;

/**
 * The footer's language and theme switches, on every screen (signed out too). Each language is named
 * in itself and marked with its lang, so a screen reader says "Deutsch" in German.
 */
export function PreferencesFooter() {
  const { locale, setLocale, t } = useI18n();
  const { theme, setTheme } = useTheme();
  return (
    <footer className="preferences">
      <Select
        label={t("preferences.language")}
        testId="language-select"
        value={locale}
        onChange={(e) => isLocale(e.target.value) && setLocale(e.target.value)}
      >
        {locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {localeNames[code]}
          </option>
        ))}
      </Select>
      <Select
        label={t("preferences.theme")}
        testId="theme-select"
        value={theme}
        onChange={(e) => setTheme(e.target.value as Theme)}
      >
        {themes.map((choice) => (
          <option key={choice} value={choice}>
            {t(themeKeys[choice])}
          </option>
        ))}
      </Select>
    </footer>
  );
}
