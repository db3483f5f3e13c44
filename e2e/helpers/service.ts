import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Page } from "playwright-core";
import { type Auth, createAuth } from "../../src/server/auth.js";
import { demoOptions } from "../../src/server/demo-options.js";
import type { Logger } from "../../src/server/logger.js";
import { createServiceApp } from "../../src/service-app.js";
import { type MailCapture, startMailCapture } from "../../test/helpers/mail.js";
import { TEST_SECRET, testHasher } from "../../test/helpers/server.js";
import { AXE_PATH, axeResponse, signInInBrowser } from "./browser.js";

export interface Service {
  /** `http://127.0.0.1:<port>`: the application and, under /api/auth, the API. */
  origin: string;
  auth: Auth;
  /** Real SMTP capture, or null when the service keeps mail in the development outbox. */
  mail: MailCapture | null;
  loggedErrors: string[];
  close(): Promise<void>;
}

export interface ServiceInput {
  /** better-auth options over the demo's (rate limiting stays off). */
  options?: Record<string, any>;
  /** Mail kept in the development outbox (/dev/outbox) instead of sent to an SMTP capture. */
  developmentOutbox?: boolean;
  /** The origin's host: WebAuthn needs a name, not an IP address. */
  host?: "localhost";
  /** The built pages to serve beside the API (default dist/app, the application). */
  appDir?: string;
}

/**
 * The real service as `npm start` runs it (API + built application on one origin), on SQLite,
 * with mail going to a real SMTP capture unless `developmentOutbox` is asked for.
 */
export async function startService(input: ServiceInput = {}): Promise<Service> {
  const loggedErrors: string[] = [];
  const logger: Logger = {
    info: () => {},
    warn: () => {},
    error: (message, fields) => loggedErrors.push(`${message} ${JSON.stringify(fields)}`),
  };
  const mail = input.developmentOutbox ? null : await startMailCapture();
  let app: ReturnType<typeof createServiceApp> | null = null;
  const server = serve({
    fetch: (request, env) => {
      if (new URL(request.url).pathname === AXE_PATH) return axeResponse();
      return app ? app.fetch(request, env) : new Response(null, { status: 503 });
    },
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  // WebAuthn refuses an IP address as the relying party: passkey tests browse to localhost.
  const origin = `http://${input.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;
  const auth = await createAuth({
    baseURL: origin,
    secret: TEST_SECRET,
    database: "sqlite::memory:",
    // What `npm start` shows a newcomer, plus the test's own options.
    options: {
      ...demoOptions,
      ...input.options,
      rateLimit: { enabled: false },
    },
    hasher: testHasher,
    // As in test/helpers/server.ts: the floor is a sleep, checked in test/enumeration-floor.test.ts.
    enumerationSafeAnswerMs: 0,
    logger,
    mail: mail ? { smtpUrl: mail.url } : { devOutbox: true },
  });
  app = createServiceApp(auth, input.appDir);
  return {
    origin,
    auth,
    mail,
    loggedErrors,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await auth.close();
      await mail?.close();
    },
  };
}

/**
 * Verifies a signed-in user's address the way a person does: "send the link again" on the profile
 * page, then the mailed link. Adding a passkey or two-factor waits for this.
 */
export async function verifyEmailFromProfile(service: Service, page: Page, email: string): Promise<void> {
  await page.goto(`${service.origin}/account`);
  await page.getByTestId("resend-verification").click();
  const mail = await service.mail!.waitFor((m) => m.to === email && /verif/i.test(m.subject), 15_000);
  await page.goto(mail.links.find((l) => l.includes("/verify-email"))!);
  await page.getByTestId("verify-success").waitFor();
}

/**
 * After a sign-up was submitted on a service that requires verification: waits for the "check your
 * mail" page, follows the verification link from the captured mail, then signs in at `signInPath`.
 */
export async function verifyByMailAndSignIn(
  service: Service,
  page: Page,
  user: { email: string; password: string },
  signInPath = "/sign-in",
): Promise<void> {
  await page.getByTestId("sign-up-check-mail").waitFor();
  const mail = await service.mail!.waitFor((m) => m.to === user.email && /verif/i.test(m.subject), 15_000);
  await page.goto(mail.links.find((l) => l.includes("/verify-email"))!);
  await page.getByTestId("verify-success").waitFor();
  await signInInBrowser(page, service.origin, user, signInPath);
}
