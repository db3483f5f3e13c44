import { useCallback, useState } from "react";

export const themes = ["system", "light", "dark"] as const;
export type Theme = (typeof themes)[number];

/** The same key public/theme.js reads before the first paint. */
const storageKey = "gatehouse.theme";

function storedTheme(): Theme {
  try {
    const value = globalThis.localStorage?.getItem(storageKey);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/**
 * `data-theme` on <html> pins light or dark; without it the stylesheet follows prefers-color-scheme
 * (styles.css: color-scheme and light-dark()).
 */
function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** The visitor's theme choice, persisted in localStorage. */
export function useTheme(): { theme: Theme; setTheme: (theme: Theme) => void } {
  const [theme, setThemeState] = useState(storedTheme);
  const setTheme = useCallback((next: Theme) => {
    try {
      if (next === "system") globalThis.localStorage?.removeItem(storageKey);
      else globalThis.localStorage?.setItem(storageKey, next);
    } catch {
      // Not persisted; it still applies to this page.
    }
    applyTheme(next);
    setThemeState(next);
  }, []);
  return { theme, setTheme };
}

/** For main.tsx: applies the stored choice (again) in case public/theme.js did not run. */
export function applyStoredTheme(): void {
  applyTheme(storedTheme());
}
