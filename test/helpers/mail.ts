import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { SMTPConnection } from "smtp-server/lib/smtp-connection.js";

export interface CapturedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The message's own Content-Type, e.g. multipart/alternative. */
  contentType: string;
  /** Every http(s) link in the text body, in order. */
  links: string[];
}

export interface MailCapture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL / createAuth's mail.smtpUrl. */
  url: string;
  port: number;
  messages: CapturedMail[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitFor(match: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  /** Mail to one address, in arrival order. */
  to(address: string): CapturedMail[];
  close(): Promise<void>;
}

// smtp-server holds each new connection 100 ms before greeting it, to catch clients that talk before
// the greeting; the service opens a connection per mail, so every mail in the suite paid the pause.
// The capture greets as soon as the socket is set up (the same steps, with the timer left out).
if (typeof SMTPConnection.prototype._setListeners !== "function") throw new Error("smtp-server changed: see mail.ts");
SMTPConnection.prototype.init = function (this: SMTPConnection) {
  this._setListeners(() => this.connectionReady());
};

/**
 * A real SMTP server on loopback (smtp-server + mailparser) that hands every message it receives,
 * parsed, to `onMail`. Answers the server (to close) and the port it listens on.
 */
export async function receiveMail(
  port: number,
  onMail: (mail: CapturedMail) => void,
): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    // A reverse lookup of 127.0.0.1 asks the machine's resolver before every greeting.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const toField = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          onMail({
            to: toField?.value[0]?.address?.toLowerCase() ?? "",
            from: parsed.from?.value[0]?.address ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            contentType: (parsed.headers.get("content-type") as { value?: string } | undefined)?.value ?? "",
            links: [...(parsed.text ?? "").matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return { server, port: (server.server.address() as AddressInfo).port };
}

/** A real SMTP server on loopback that keeps everything it receives (receiveMail). */
export async function startMailCapture(port = 0): Promise<MailCapture> {
  const messages: CapturedMail[] = [];
  const waiters: { match: (m: CapturedMail) => boolean; resolve: (m: CapturedMail) => void }[] = [];
  const { server, port: actualPort } = await receiveMail(port, (mail) => {
    messages.push(mail);
    for (const waiter of [...waiters]) {
      if (waiter.match(mail)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(mail);
      }
    }
  });
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    to: (address) => messages.filter((m) => m.to === address.toLowerCase()),
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no matching mail arrived")), timeoutMs);
        waiters.push({
          match,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
