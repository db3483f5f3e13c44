import { createRequire } from "node:module";
import type nodemailerType from "nodemailer";
import type { Logger } from "../logger.js";
import type { MailMessage } from "./message.js";

/** Where mail goes: SMTP, or the development outbox. */
export interface MailTransport {
  readonly name: "smtp" | "development" | "disabled";
  send(message: MailMessage & { from: string }): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer, from `smtp://[user:pass@]host:port`. */
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
 * Without SMTP_URL: nothing leaves the machine. The message is logged (with its links, so a developer
 * can follow them) and stays in the outbox table, which the application lists in development.
 */
export function developmentTransport(logger: Logger): MailTransport {
  return {
    name: "development",
    async send(message) {
      logger.info("development mail (not sent)", { to: message.to, subject: message.subject, text: message.text });
    },
    close: () => {},
  };
}
