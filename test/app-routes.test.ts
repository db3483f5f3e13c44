import { get as httpGet } from "node:http";
import { networkInterfaces } from "node:os";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startMailCapture } from "./helpers/mail.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    options: {
      socialProviders: { google: { clientId: "g-client", clientSecret: "secret-not-shown" } },
      emailOTP: { enabled: true, otpLength: 8 },
    },
    extra: { mail: { devOutbox: true } },
  });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("GET /dev/outbox", () => {
  it("lists the development outbox, newest first", async () => {
    const { mail, db } = server.auth.context;
    await mail.enqueue(db, { to: "a@example.com", subject: "First", text: "t1", html: "<p>1</p>", kind: "test" });
    await mail.enqueue(db, { to: "b@example.com", subject: "Second", text: "t2", html: "<p>2</p>", kind: "test" });
    const res = await server.browser().get("/dev/outbox");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const subjects = res.body.map((m: { subject: string }) => m.subject);
    expect(subjects).toEqual(expect.arrayContaining(["First", "Second"]));
    expect(res.body[0]).toMatchObject({ to: expect.any(String), text: expect.any(String), kind: "test" });
  });

  it("answers only this machine: not another address, a proxied request, or a rebound Host", async () => {
    const open = await startTestServer({ hostname: "0.0.0.0", extra: { mail: { devOutbox: true } } });
    try {
      const port = new URL(open.origin).port;
      // node:http, because fetch will not send a Host header of our choosing.
      const get = (url: string, headers: Record<string, string> = {}) =>
        new Promise<number>((resolve, reject) => {
          httpGet(url, { headers }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          }).on("error", reject);
        });
      expect(await get(`${open.origin}/api/auth/dev/outbox`)).toBe(200);
      expect(await get(`http://localhost:${port}/api/auth/dev/outbox`)).toBe(200);
      // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1.
      expect(await get(`${open.origin}/api/auth/dev/outbox`, { host: `evil.example:${port}` })).toBe(404);
      // Through a proxy on this machine the peer is loopback, but the client is not.
      expect(await get(`${open.origin}/api/auth/dev/outbox`, { "x-forwarded-for": "203.0.113.9" })).toBe(404);
      expect(await get(`${open.origin}/api/auth/dev/outbox`, { forwarded: "for=203.0.113.9" })).toBe(404);
      const external = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === "IPv4" && !i.internal);
      if (external) expect(await get(`http://${external.address}:${port}/api/auth/dev/outbox`)).toBe(404);
    } finally {
      await open.close();
    }
  });

  it("is 404 unless asked for (mail.devOutbox), and app-config says so", async () => {
    const plain = await startTestServer();
    try {
      const res = await plain.browser().get("/dev/outbox");
      expect(res.status).toBe(404);
      expect((await plain.browser().get("/app-config")).body.devOutbox).toBe(false);
    } finally {
      await plain.close();
    }
  });

  it("is 404 when mail really goes out over SMTP", async () => {
    const capture = await startMailCapture();
    const smtpServer = await startTestServer({ extra: { mail: { smtpUrl: capture.url } } });
    try {
      const res = await smtpServer.browser().get("/dev/outbox");
      expect(res.status).toBe(404);
      expect(res.body).toBeNull();
    } finally {
      await smtpServer.close();
      await capture.close();
    }
  });
});

describe("GET /app-config", () => {
  it("names the enabled sign-in methods and features, without secrets", async () => {
    const res = await server.browser().get("/app-config");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      socialProviders: ["google"],
      anonymous: true,
      oneTapClientId: "g-client",
      emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128 },
      devOutbox: true,
      emailOTP: true,
      emailOTPLength: 8,
    });
    expect(JSON.stringify(res.body)).not.toContain("secret-not-shown");
  });
});
