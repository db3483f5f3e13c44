import { createRequire } from "node:module";
import type nodemailerType from "nodemailer";
import type { Logger } from "../logger.js";
import type { MailMessage } from "./message.js";

/** Where mail goes: SMTP, your own delivery, the development outbox, or nowhere (email/delivery.ts). */
export interface MailTransport {
  /** Named in the start-up log and by `gatehouse doctor`, e.g. "smtp". */
  readonly name: string;
  send(message: MailMessage & { from: string }): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer, from `smtp://[user:pass@]host:port`.
 *
 * @example
 * const auth = await createAuth({
 *   baseURL, secret, database,
 *   mail: { transport: smtpTransport("smtp://user:pass@smtp.example.com:587"), from: "Example <auth@example.com>" },
 * });
 */
export function smtpTransport(url: string): MailTransport {
  // Loaded only when SMTP is configured: the development outbox never needs it (bench/README.md, lazy loads).
  const nodemailer = createRequire(import.meta.url)("nodemailer") as typeof nodemailerType;
  const transporter = nodemailer.createTransport(url);
  return {
    name: "smtp",
    async send(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * MAIL_DISABLED: nothing is sent, and nothing of the message is logged but its kind (its text holds
 * live links and codes).
 */
export function disabledTransport(logger: Logger): MailTransport {
  return {
    name: "disabled",
    async send(message) {
      logger.info("mail not sent (mail is disabled)", { kind: message.kind });
    },
    close: () => {},
  };
}

/**
 * Library mode with no delivery configured: the mail stays in the outbox table and only its kind is
 * logged (its text holds live links and codes). createAuth says so at start-up.
 */
export function undeliveredTransport(logger: Logger): MailTransport {
  return {
    name: "undelivered",
    async send(message) {
      logger.warn("mail not delivered (no mail transport configured)", { kind: message.kind });
    },
    close: () => {},
  };
}

/**
 * The development outbox (asked for with mail.devOutbox): nothing leaves the machine. The log names
 * the mail and where to read it; the text, with its live links, is only in the outbox.
 */
export function developmentTransport(logger: Logger, outboxUrl: string): MailTransport {
  return {
    name: "development",
    async send(message) {
      logger.info(`development mail (not sent), read it at ${outboxUrl}`, { to: message.to, subject: message.subject });
    },
    close: () => {},
  };
}
