import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import type { Result } from "../client/index.js";
import { formatDateTime, type Translate } from "../i18n/index.js";
import { useFrame } from "./form-parts.js";
import type { HasCode } from "./messages.js";
import { relativeTime } from "./relative-time.js";

/* Small pieces UserProfile's sections share: loading a list, asking before a destructive action, dates. */

/** Loads once on mount and again on `reload()`; `data` stays while a reload runs. */
export function useLoad<T>(load: () => Promise<Result<T>>, enabled = true) {
  const [state, setState] = useState<{ data: T | null; error: HasCode | null; pending: boolean }>({
    data: null,
    error: null,
    pending: enabled,
  });
  const [version, setVersion] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger.
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void latest.current().then(({ data, error }) => {
      if (current) setState({ data: error ? null : (data as T), error: error ?? null, pending: false });
    });
    return () => {
      current = false;
    };
  }, [enabled, version]);
  const reload = useCallback(() => setVersion((n) => n + 1), []);
  return { ...state, reload };
}

/** "2 hours ago" in the component's language; the exact time in the tooltip. */
export function RelativeTime({ date, testId }: { date: Date | string; testId?: string }) {
  const { locale = "en" } = useFrame();
  const when = new Date(date);
  return (
    <time dateTime={when.toISOString()} title={formatDateTime(locale, when)} data-testid={testId}>
      {relativeTime(when, new Date(), locale)}
    </time>
  );
}

export function useFormatDate(): (date: Date | string | null | undefined) => string {
  const { locale = "en" } = useFrame();
  return (date) => (date ? formatDateTime(locale, date) : "—");
}

/** A translated sentence with elements in it: t() leaves `{link}` for this to fill. */
export function withElements(text: string, elements: Readonly<Record<string, ReactNode>>): ReactNode {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence never move.
    return name && name in elements ? <span key={index}>{elements[name]}</span> : part;
  });
}

/** "Chrome on Linux" from a user agent, good enough to recognise one's own devices. */
export function describeDevice(userAgent: string | null, t: Translate): string {
  if (!userAgent) return t("device.unknown");
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Chrome\//.test(userAgent)
      ? "Chrome"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : /node|undici/i.test(userAgent)
            ? t("device.script")
            : t("device.browser");
  const os = /Windows/.test(userAgent)
    ? "Windows"
    : /Android/.test(userAgent)
      ? "Android"
      : /iPhone|iPad/.test(userAgent)
        ? "iOS"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return os ? t("device.on", { browser, os }) : browser;
}

/** Copies text and says so for a moment (the button's own label changes, announced politely). */
export function CopyButton({ text, testId, label }: { text: string; testId: string; label: string }) {
  const { t } = useFrame();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className="gh-button gh-secondary"
      data-testid={testId}
      aria-label={copied ? undefined : label}
      onClick={async () => {
        await navigator.clipboard?.writeText(text);
        setCopied(true);
      }}
    >
      <span aria-live="polite">{copied ? t("profile.copied") : t("profile.copy")}</span>
    </button>
  );
}
