import { type Locale, translate } from "../../i18n/index.js";
import { escapeHtml } from "../html-escape.js";
import type { MailMessage } from "./message.js";

const FONT = "system-ui,-apple-system,'Segoe UI',sans-serif";

/**
 * Every inline style the layout uses. Fixed strings, so the development outbox's page policy can allow
 * exactly these by hash ('unsafe-hashes') when it shows a mail in a frame.
 */
const STYLE = {
  paragraph: "margin:0 0 16px;line-height:1.5",
  code: "margin:0 0 16px;font-size:28px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace",
  buttonRow: "margin:8px 0 24px",
  button:
    "display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600",
  linkNote: "margin:0 0 16px;font-size:13px;color:#4b5563;line-height:1.5",
  link: "color:#1d4ed8;word-break:break-all",
  body: "margin:0;padding:0;background:#f3f4f6",
  outer: "background:#f3f4f6",
  outerCell: "padding:24px 12px",
  card: "max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #e5e7eb",
  header: `padding:20px 28px;border-bottom:1px solid #e5e7eb;font-family:${FONT};font-size:18px;font-weight:700;color:#111827`,
  content: `padding:24px 28px;font-family:${FONT};font-size:15px;color:#1f2937`,
  heading: "margin:0 0 16px;font-size:20px;line-height:1.3;color:#111827",
  footer: `padding:16px 28px;border-top:1px solid #e5e7eb;font-family:${FONT};font-size:12px;color:#6b7280`,
} as const;

export const MAIL_STYLES: readonly string[] = Object.values(STYLE);

/** A mail's words before the layout: what the templates build and MailOutbox.enqueue renders. */
export interface ActionMail {
  to: string;
  kind: string;
  /** The language of the words below; the layout's own words follow it. */
  locale: Locale;
  subject: string;
  /** Paragraphs before the button. */
  intro: string[];
  /** A one-time code, shown large on its own line (email-otp, two-factor). */
  code?: string;
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  outro?: string[];
}

export const isActionMail = (mail: MailMessage | ActionMail): mail is ActionMail => "intro" in mail;

/**
 * One look for every message: a plain-text part and an HTML part with the same words and the same
 * links, the product's name on top and in the footer. Inline styles and no images, because mail
 * clients drop style sheets and block remote images. Every value is escaped in the HTML: names and
 * organization names are chosen by users.
 */
export function renderActionMail(mail: ActionMail, appName = "Gatehouse"): MailMessage {
  const outro = mail.outro ?? [];
  const footer = translate(mail.locale, "mail.footer", { appName });
  const textParts = [appName, ...mail.intro];
  if (mail.code) textParts.push(mail.code);
  if (mail.action) textParts.push(`${mail.action.label}: ${mail.action.url}`);
  textParts.push(...outro, "--", footer);

  const paragraphs = (lines: string[]) =>
    lines.map((line) => `<p style="${STYLE.paragraph}">${escapeHtml(line)}</p>`).join("\n");
  const code = mail.code ? `<p style="${STYLE.code}">${escapeHtml(mail.code)}</p>` : "";
  const url = mail.action ? escapeHtml(mail.action.url) : "";
  const button = mail.action
    ? `<p style="${STYLE.buttonRow}"><a href="${url}" style="${STYLE.button}">${escapeHtml(mail.action.label)}</a></p>
<p style="${STYLE.linkNote}">${escapeHtml(translate(mail.locale, "mail.openLink"))}<br><a href="${url}" style="${STYLE.link}">${url}</a></p>`
    : "";
  const html = `<!doctype html>
<html lang="${mail.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(mail.subject)}</title></head>
<body style="${STYLE.body}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${STYLE.outer}"><tr><td align="center" style="${STYLE.outerCell}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${STYLE.card}">
<tr><td style="${STYLE.header}">${escapeHtml(appName)}</td></tr>
<tr><td style="${STYLE.content}">
<h1 style="${STYLE.heading}">${escapeHtml(mail.subject)}</h1>
${paragraphs(mail.intro)}
${code}
${button}
${paragraphs(outro)}
</td></tr>
<tr><td style="${STYLE.footer}">${escapeHtml(footer)}</td></tr>
</table></td></tr></table>
</body></html>`;
  return { to: mail.to, kind: mail.kind, subject: mail.subject, text: textParts.join("\n\n"), html };
}
