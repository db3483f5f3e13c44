import { type Locale, translate } from "../../i18n/index.js";
import type { MailMessage } from "./message.js";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );

export interface ActionMail {
  to: string;
  kind: string;
  /** The language of the words below; the layout's own words follow it. */
  locale: Locale;
  subject: string;
  /** Paragraphs before the button. */
  intro: string[];
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  outro?: string[];
}

/**
 * One look for every message: plain text and HTML with the same words, and the action link written
 * out in full in both (some clients show no buttons).
 */
export function renderActionMail(mail: ActionMail): MailMessage {
  const outro = mail.outro ?? [];
  const textParts = [...mail.intro];
  if (mail.action) textParts.push(`${mail.action.label}: ${mail.action.url}`);
  textParts.push(...outro);
  const paragraphs = (lines: string[]) => lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n");
  const button = mail.action
    ? `<p><a href="${escapeHtml(mail.action.url)}" style="display:inline-block;padding:10px 18px;background:#0b5fff;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(mail.action.label)}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(translate(mail.locale, "mail.openLink"))} <a href="${escapeHtml(mail.action.url)}">${escapeHtml(mail.action.url)}</a></p>`
    : "";
  const html = `<!doctype html><html lang="${mail.locale}"><body style="font-family:system-ui,sans-serif;color:#1b1f24;max-width:560px">
${paragraphs(mail.intro)}
${button}
${paragraphs(outro)}
</body></html>`;
  return { to: mail.to, kind: mail.kind, subject: mail.subject, text: textParts.join("\n\n"), html };
}
