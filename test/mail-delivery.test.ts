import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth } from "../src/server/auth.js";
import type { OutgoingMail } from "../src/server/email/delivery.js";
import { startMailCapture } from "./helpers/mail.js";
import { uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/** createAuth's mail option in library mode, and the application pages mails link to (options.pages). */
describe("mail through an app's send function, to pages the app names", () => {
  const sent: OutgoingMail[] = [];
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      options: {
        magicLink: { enabled: true },
        pages: { resetPassword: "/account/new-password", magicLink: "/auth/confirm-link", error: "/oops" },
      },
      extra: { mail: { send: async (mail: OutgoingMail) => void sent.push(mail), from: "App <auth@app.example>" } },
    });
  });
  afterAll(() => server.close());

  const mailTo = async (to: string) => {
    await server.settled();
    const found = sent.find((m) => m.to === to);
    if (!found) throw new Error(`no mail to ${to}`);
    return found;
  };

  it("hands the reset mail to send, linking to the app's reset page", async () => {
    const { email } = await signUp(server, { email: uniqueEmail("send") });
    expect((await server.browser().post("/request-password-reset", { email })).status).toBe(200);
    const mail = await mailTo(email);
    expect(mail).toMatchObject({ from: "App <auth@app.example>", kind: "reset-password" });
    expect(mail.subject).toBeTruthy();
    expect(mail.html).toContain("<");
    const link = /https?:\/\/\S+\/reset-password\/\S+/.exec(mail.text)?.[0] ?? "";
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/account/new-password");
    const followed = await server.browser().get(link);
    expect(followed.headers.get("location")).toMatch(
      new RegExp(`^${server.origin}/account/new-password\\?token=[A-Za-z0-9]{24}$`),
    );
  });

  it("points the magic-link mail at the app's confirmation page", async () => {
    const email = uniqueEmail("magic");
    expect((await server.browser().post("/sign-in/magic-link", { email })).status).toBe(200);
    const mail = await mailTo(email);
    const link = new URL(/https?:\/\/\S+\/auth\/confirm-link\?\S+/.exec(mail.text)?.[0] ?? "http://none/");
    expect(link.origin + link.pathname).toBe(`${server.origin}/auth/confirm-link`);
    expect(link.searchParams.get("token")).toBeTruthy();
  });

  it("sends /error in production to the app's error page", async () => {
    vi.stubEnv("NODE_ENV", "production");
    try {
      const res = await server.browser().get("/error?error=state_mismatch");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`${server.origin}/oops?error=state_mismatch`);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("refuses a page on an untrusted origin at start-up", async () => {
    const refused = createAuth({
      baseURL: "http://127.0.0.1:1",
      secret: TEST_SECRET,
      database: "sqlite::memory:",
      options: { pages: { resetPassword: "https://evil.example/r" } },
      mail: { disabled: true },
    });
    await expect(refused).rejects.toThrow('option "pages.resetPassword"');
  });
});

describe("createAuth without any mail delivery", () => {
  it("says at start-up that mail is not delivered, and logs no mail text", async () => {
    const logged: string[] = [];
    const record = (message: string, fields?: object) => logged.push(`${message} ${JSON.stringify(fields ?? {})}`);
    const auth = await createAuth({
      baseURL: "http://127.0.0.1:1",
      secret: TEST_SECRET,
      database: "sqlite::memory:",
      logger: { info: record, warn: record, error: record },
    });
    try {
      expect(logged[0]).toMatch(/^Mail is NOT delivered: set SMTP_URL, or give createAuth mail\.smtpUrl/);
      const { mail, db } = auth.context;
      await mail.enqueue(db, { to: "a@example.com", subject: "S", text: "http://x/?token=live", html: "", kind: "k" });
      await mail.flush();
      expect(logged.join("\n")).not.toContain("token=live");
      expect(auth.context.devOutbox).toBe(false);
    } finally {
      await auth.close();
    }
  });
});

describe("SMTP_URL and MAIL_FROM from the environment", () => {
  it("are picked up by createAuth when the mail option names no delivery", async () => {
    const capture = await startMailCapture();
    vi.stubEnv("SMTP_URL", capture.url);
    vi.stubEnv("MAIL_FROM", "Env Sender <env@example.com>");
    const server = await startTestServer();
    try {
      const { email } = await signUp(server, { email: uniqueEmail("env") });
      await server.browser().post("/request-password-reset", { email });
      const mail = await capture.waitFor((m) => m.to === email);
      expect(mail.from).toBe("env@example.com");
      expect(mail.links.some((l) => l.startsWith(`${server.origin}/api/auth/reset-password/`))).toBe(true);
    } finally {
      vi.unstubAllEnvs();
      await server.close();
      await capture.close();
    }
  });
});
