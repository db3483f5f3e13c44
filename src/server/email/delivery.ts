import type { Logger } from "../logger.js";
import { ConfigError } from "../options.js";
import type { MailMessage } from "./message.js";
import {
  developmentTransport,
  disabledTransport,
  type MailTransport,
  smtpTransport,
  undeliveredTransport,
} from "./transport.js";

/** A mail as a `send` function receives it: ready to hand to any mail API (Resend, SES, Postmark, ...). */
export type OutgoingMail = MailMessage & { from: string };

/** What createAuth needs of a nodemailer transporter (`nodemailer.createTransport(...)`). */
export interface NodemailerTransporter {
  sendMail(mail: { from: string; to: string; subject: string; text: string; html: string }): Promise<unknown>;
  close?(): void;
}

/**
 * createAuth's `mail` option. Say at most one of smtpUrl, transport, send, disabled and devOutbox;
 * with none of them, SMTP_URL and MAIL_DISABLED are read from the environment, as the service does.
 */
export interface MailOptions {
  /** `smtp://[user:pass@]host:port` (or smtps://): delivered through nodemailer. */
  smtpUrl?: string | null;
  /** A nodemailer transporter, or a MailTransport of your own. */
  transport?: MailTransport | NodemailerTransporter;
  /** Your own delivery (Resend, SES, Postmark, ...): resolve once the mail is accepted, throw to retry later. */
  send?: (mail: OutgoingMail) => Promise<void>;
  /** No mail at all: nothing is sent, and only each mail's kind is logged (MAIL_DISABLED=1). */
  disabled?: boolean;
  /**
   * Development only: mail stays on this machine and is listed at `<basePath>/dev/outbox` (to loopback
   * callers), with its live links. Refused in production.
   */
  devOutbox?: boolean;
  /** The From address; default MAIL_FROM, else `Gatehouse <no-reply@<BASE_URL host>>`. */
  from?: string;
  /** First retry delay after a failed send (default 1 s, doubling). */
  retryBaseMs?: number;
  /** How often the outbox looks for due retries and rows another instance left (default 5 s). */
  pollIntervalMs?: number;
}

/** Where mail goes, decided once at start-up. */
export interface ResolvedMail {
  transport: MailTransport;
  from: string;
  /** Whether `<basePath>/dev/outbox` is served. */
  devOutbox: boolean;
  /** One line for the start-up log and `gatehouse doctor`; never a credential. */
  description: string;
  /** Set when mail leaves nothing but a log line: said once, as a warning, at start-up. */
  warning: string | null;
}

const CHOICES = ["smtpUrl", "transport", "send", "disabled", "devOutbox"] as const;

/**
 * The one place that decides mail delivery: the `mail` option first, then SMTP_URL / MAIL_DISABLED
 * / MAIL_FROM from the environment. Without any, production refuses to start, and development
 * keeps mail undelivered (said at start-up) rather than logging its live links.
 */
export function resolveMail(
  mail: MailOptions | undefined,
  context: { env: NodeJS.ProcessEnv; production: boolean; baseURL: string; basePath: string; logger: Logger },
): ResolvedMail {
  const { env, production, logger } = context;
  const chosen = CHOICES.filter((key) => Boolean(mail?.[key]));
  if (chosen.length > 1) {
    throw new ConfigError(`mail: say one of ${CHOICES.join(", ")} (got ${chosen.join(" and ")})`);
  }
  const from = mail?.from || env.MAIL_FROM || `Gatehouse <no-reply@${new URL(context.baseURL).hostname}>`;
  const outboxUrl = `${context.baseURL}${context.basePath}/dev/outbox`;
  const resolved = (transport: MailTransport, description: string, extra: Partial<ResolvedMail> = {}) => ({
    transport,
    from,
    devOutbox: false,
    description,
    warning: null,
    ...extra,
  });

  if (mail?.smtpUrl) return resolved(smtpTransport(checkSmtpUrl(mail.smtpUrl, "mail.smtpUrl")), smtpLine(mail.smtpUrl));
  if (mail?.transport) return resolved(wrapTransport(mail.transport), "your transport (mail.transport)");
  if (mail?.send) return resolved(sendFunctionTransport(mail.send), "your send function (mail.send)");
  if (mail?.disabled) return resolved(disabledTransport(logger), "disabled: nothing is sent");
  if (mail?.devOutbox) {
    if (production) {
      throw new ConfigError(
        "mail.devOutbox is refused in production: it shows every mail, reset links included. Give mail.smtpUrl, transport or send",
      );
    }
    return resolved(developmentTransport(logger, outboxUrl), `development outbox, ${outboxUrl}`, { devOutbox: true });
  }

  const envDisabled = readMailDisabled(env);
  if (env.SMTP_URL) return resolved(smtpTransport(checkSmtpUrl(env.SMTP_URL, "SMTP_URL")), smtpLine(env.SMTP_URL));
  if (envDisabled) return resolved(disabledTransport(logger), "disabled: nothing is sent");
  if (production) {
    throw new ConfigError(
      "SMTP_URL is required when NODE_ENV=production: without it mail has nowhere to go. Set SMTP_URL (or give createAuth mail.smtpUrl, mail.transport or mail.send), or MAIL_DISABLED=1 (mail.disabled) to run without mail",
    );
  }
  const description = "not delivered: no SMTP_URL, mail.smtpUrl, mail.transport or mail.send";
  return resolved(undeliveredTransport(logger), description, {
    warning: `Mail is NOT delivered: set SMTP_URL, or give createAuth mail.smtpUrl, mail.transport or mail.send. For development, mail: { devOutbox: true } lists mail at ${outboxUrl}`,
  });
}

/** MAIL_DISABLED, checked (it contradicts SMTP_URL): all that `gatehouse doctor` needs of the mail setup. */
export function readMailDisabled(env: NodeJS.ProcessEnv): boolean {
  const value = env.MAIL_DISABLED;
  let disabled: boolean;
  if (value === undefined || value === "" || value === "0" || value === "false") disabled = false;
  else if (value === "1" || value === "true") disabled = true;
  else throw new ConfigError(`MAIL_DISABLED must be 1, true, 0 or false (got "${value}")`);
  if (disabled && env.SMTP_URL) throw new ConfigError("MAIL_DISABLED and SMTP_URL are both set: unset one of them");
  return disabled;
}

export function checkSmtpUrl(url: string, name: string): string {
  if (!/^smtps?:\/\//.test(url)) throw new ConfigError(`${name} must look like smtp://[user:pass@]host:port`);
  return url;
}

/** The SMTP host only: the URL's user and password stay out of logs. */
function smtpLine(url: string): string {
  try {
    return `SMTP ${new URL(url).host}`;
  } catch {
    return "SMTP";
  }
}

function wrapTransport(transport: MailTransport | NodemailerTransporter): MailTransport {
  if ("sendMail" in transport && typeof transport.sendMail === "function") {
    const transporter = transport;
    return {
      name: "custom",
      async send({ from, to, subject, text, html }) {
        await transporter.sendMail({ from, to, subject, text, html });
      },
      close: () => transporter.close?.(),
    };
  }
  if ("send" in transport && typeof transport.send === "function") return transport;
  throw new ConfigError("mail.transport must be a nodemailer transporter (sendMail) or a MailTransport (send)");
}

function sendFunctionTransport(send: (mail: OutgoingMail) => Promise<void>): MailTransport {
  if (typeof send !== "function") throw new ConfigError("mail.send must be a function");
  return { name: "custom", send: (message) => send({ ...message }), close: () => {} };
}
