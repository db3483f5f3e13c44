import { formatDateTime } from "../../i18n/index.js";
import { useI18n } from "../lib/i18n.js";
import { relativeTime } from "../lib/relative-time.js";

/** "2 hours ago" in the current language; the exact time in the tooltip and the machine-readable value. */
export function RelativeTime({ date, testId }: { date: Date | string; testId?: string }) {
  const { locale } = useI18n();
  const when = new Date(date);
  return (
    <time dateTime={when.toISOString()} title={formatDateTime(locale, when)} data-testid={testId}>
      {relativeTime(when, new Date(), locale)}
    </time>
  );
}
