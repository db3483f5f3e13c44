import type { CSSProperties } from "react";
import { type Locale, type MessageKey, type MessageVars, type Translate, translate } from "../i18n/index.js";

/** The languages the components ship in (the package's own catalogue, src/i18n). */
export type Localization = Locale;

/**
 * Words to use instead of the catalogue's, by catalogue key (`{"signIn.submit": "Log in"}`); a
 * `{name}` in a replacement is filled like the catalogue's own.
 */
export type Labels = Partial<Record<MessageKey, string>>;

export function componentTranslator(localization: Localization = "en", labels?: Labels): Translate {
  return (key, vars?: MessageVars) => {
    const own = labels?.[key];
    if (own === undefined) return translate(localization, key, vars);
    if (!vars) return own;
    return own.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}

/**
 * How a component looks: `theme` pins light or dark (else it follows the system's preference), and
 * `variables` set the colours, radius and font it draws with (any CSS value).
 */
export interface Appearance {
  theme?: "light" | "dark" | "auto";
  variables?: {
    colorPrimary?: string;
    colorPrimaryText?: string;
    colorBackground?: string;
    colorText?: string;
    colorMuted?: string;
    colorBorder?: string;
    colorDanger?: string;
    colorInputBackground?: string;
    borderRadius?: string;
    fontFamily?: string;
    fontSize?: string;
  };
}

const variableNames: Record<keyof NonNullable<Appearance["variables"]>, string> = {
  colorPrimary: "--gh-accent",
  colorPrimaryText: "--gh-accent-text",
  colorBackground: "--gh-surface",
  colorText: "--gh-text",
  colorMuted: "--gh-muted",
  colorBorder: "--gh-border",
  colorDanger: "--gh-danger",
  colorInputBackground: "--gh-input-bg",
  borderRadius: "--gh-radius",
  fontFamily: "--gh-font",
  fontSize: "--gh-font-size",
};

/** The appearance as inline style on the component's root (the stylesheet reads the --gh-* variables). */
export function appearanceStyle(appearance: Appearance | undefined): CSSProperties {
  const style: Record<string, string> = {};
  for (const [name, value] of Object.entries(appearance?.variables ?? {})) {
    const variable = variableNames[name as keyof typeof variableNames];
    if (variable && value) style[variable] = value;
  }
  if (appearance?.theme === "light" || appearance?.theme === "dark") style.colorScheme = appearance.theme;
  return style as CSSProperties;
}
