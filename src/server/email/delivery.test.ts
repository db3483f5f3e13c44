import { describe, expect, it } from "vitest";
import type { Logger } from "../logger.js";
import { ConfigError } from "../options.js";
import { type OutgoingMail, resolveMail } from "./delivery.js";

const logged: string[] = [];
const logger: Logger = {
  info: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
  warn: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
  error: () => {},
};
const context = (env: NodeJS.ProcessEnv = {}, production = false) => ({
  env,
  production,
  baseURL: "https://auth.example.com",
  basePath: "/api/auth",
  logger,
});
const message = { to: "ada@example.com", subject: "Reset", text: "t https://x/?token=1", html: "<p/>", kind: "k" };

describe("resolveMail", () => {
  it("reads SMTP_URL and MAIL_FROM from the environment when the option names no delivery", () => {
    const mail = resolveMail(
      {},
      context({ SMTP_URL: "smtp://user:pw@mail.example.com:2525", MAIL_FROM: "A <a@x.com>" }),
    );
    expect(mail).toMatchObject({ from: "A <a@x.com>", devOutbox: false, description: "SMTP mail.example.com:2525" });
    expect(mail.transport.name).toBe("smtp");
    mail.transport.close();
  });

  it("lets the option win over the environment, and from over MAIL_FROM", async () => {
    const sent: OutgoingMail[] = [];
    const mail = resolveMail(
      { send: async (m) => void sent.push(m), from: "B <b@x.com>" },
      context({ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "A <a@x.com>" }),
    );
    expect(mail.description).toBe("your send function (mail.send)");
    await mail.transport.send({ ...message, from: mail.from });
    expect(sent).toEqual([{ ...message, from: "B <b@x.com>" }]);
  });

  it("takes a nodemailer transporter or a MailTransport as transport", async () => {
    const sent: unknown[] = [];
    const nodemailerLike = { sendMail: async (m: unknown) => void sent.push(m) };
    await resolveMail({ transport: nodemailerLike }, context()).transport.send({ ...message, from: "f" });
    expect(sent).toEqual([{ from: "f", to: message.to, subject: "Reset", text: message.text, html: "<p/>" }]);
    const own = { name: "mine", send: async () => {}, close: () => {} };
    expect(resolveMail({ transport: own }, context()).transport).toBe(own);
    expect(() => resolveMail({ transport: {} as never }, context())).toThrow(ConfigError);
  });

  it("refuses two deliveries at once and a malformed SMTP URL", () => {
    expect(() => resolveMail({ smtpUrl: "smtp://h", send: async () => {} }, context())).toThrow(
      "mail: say one of smtpUrl, transport, send, disabled, devOutbox (got smtpUrl and send)",
    );
    expect(() => resolveMail({}, context({ SMTP_URL: "mail.example.com" }))).toThrow("SMTP_URL must look like");
    expect(() => resolveMail({}, context({ SMTP_URL: "smtp://h", MAIL_DISABLED: "1" }))).toThrow("both set");
  });

  it("serves the development outbox only when asked, and never in production", () => {
    expect(resolveMail({ devOutbox: true }, context())).toMatchObject({
      devOutbox: true,
      description: "development outbox, https://auth.example.com/api/auth/dev/outbox",
    });
    expect(() => resolveMail({ devOutbox: true }, context({}, true))).toThrow(
      "mail.devOutbox is refused in production",
    );
  });

  it("without any delivery: undelivered with a warning in development, refused in production", async () => {
    const mail = resolveMail(undefined, context());
    expect(mail.devOutbox).toBe(false);
    expect(mail.warning).toContain("Mail is NOT delivered");
    logged.length = 0;
    await mail.transport.send({ ...message, from: mail.from });
    // The text holds live links: only the kind is logged.
    expect(logged).toEqual(['mail not delivered (no mail transport configured) {"kind":"k"}']);
    expect(() => resolveMail(undefined, context({}, true))).toThrow("SMTP_URL is required when NODE_ENV=production");
    expect(resolveMail({ disabled: true }, context({}, true)).warning).toBeNull();
    expect(resolveMail(undefined, context({ MAIL_DISABLED: "1" }, true)).transport.name).toBe("disabled");
  });
});
