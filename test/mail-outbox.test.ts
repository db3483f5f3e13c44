import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderActionMail } from "../src/server/email/layout.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

describe("mail outbox", () => {
  let capture: MailCapture;
  let server: TestServer;

  beforeAll(async () => {
    capture = await startMailCapture();
    server = await startTestServer({
      extra: { mail: { smtpUrl: capture.url, from: "Gatehouse <auth@example.com>", retryBaseMs: 50 } },
    });
  });
  afterAll(async () => {
    await server.close();
    await capture.close();
  });

  const sample = (to: string) =>
    renderActionMail({
      to,
      kind: "test",
      locale: "en",
      subject: "Hello",
      intro: ["Hi"],
      action: { label: "Open", url: "http://x.test/a?b=1" },
    });

  it("delivers a committed message over real SMTP as soon as it is woken", async () => {
    const { db } = server.auth.database;
    await db.transaction().execute((trx) => server.auth.context.mail.enqueue(trx, sample("one@example.com")));
    server.auth.context.mail.wake();
    const mail = await capture.waitFor((m) => m.to === "one@example.com");
    expect(mail).toMatchObject({ subject: "Hello", from: "auth@example.com", links: ["http://x.test/a?b=1"] });
    expect(mail.html).toContain('href="http://x.test/a?b=1"');
  });

  it("sends nothing for a transaction that rolled back", async () => {
    const { db } = server.auth.database;
    await expect(
      db.transaction().execute(async (trx) => {
        await server.auth.context.mail.enqueue(trx, sample("rolled-back@example.com"));
        throw new Error("change failed");
      }),
    ).rejects.toThrow("change failed");
    await server.auth.context.mail.flush();
    expect(capture.to("rolled-back@example.com")).toEqual([]);
  });

  it("keeps mail through an SMTP outage and delivers it when the server is back", async () => {
    const outage = await startMailCapture();
    await outage.close(); // a port with nothing listening
    const down = await startTestServer({ extra: { mail: { smtpUrl: outage.url, retryBaseMs: 10 } } });
    try {
      const { db } = down.auth.database;
      await down.auth.context.mail.enqueue(db, sample("later@example.com"));
      await down.auth.context.mail.flush();
      const [entry] = await down.auth.context.mail.list();
      expect(entry).toMatchObject({ attempts: 1, sentAt: null });
      expect(entry?.lastError).toBeTruthy();

      const back = await startMailCapture(outage.port);
      try {
        down.clock.advance(60);
        await down.auth.context.mail.flush();
        const mail = await back.waitFor((m) => m.to === "later@example.com");
        expect(mail.subject).toBe("Hello");
        const [delivered] = await down.auth.context.mail.list();
        expect(delivered?.sentAt).toBeInstanceOf(Date);
        expect(delivered?.attempts).toBe(2);
      } finally {
        await back.close();
      }
    } finally {
      await down.close();
    }
  });
});
