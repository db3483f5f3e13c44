/**
 * What both screenshot scripts (scripts/screenshots.ts, scripts/setup-screenshots.ts) start with: the
 * application built, and the service on a temporary SQLite database, listening on loopback.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { Page } from "playwright-core";
import { build } from "vite";
import { type CreateAuthInput, createAuth } from "../src/server/auth.js";
import { createServiceApp } from "../src/service-app.js";

const quiet = { info: () => {}, warn: () => {}, error: (message: string) => console.error(message) };

export interface ScreenshotService {
  origin: string;
  close(): Promise<void>;
}

/** Builds the app and starts the service at `host` with `options` (and `mail`), on a database of its own. */
export async function startScreenshotService(input: {
  host: "localhost" | "127.0.0.1";
  options: CreateAuthInput["options"];
  mail?: CreateAuthInput["mail"];
}): Promise<ScreenshotService> {
  const nodeEnv = process.env.NODE_ENV;
  await build({ configFile: "vite.config.ts", logLevel: "warn" });
  // vite's build sets NODE_ENV=production, which refuses the development outbox.
  process.env.NODE_ENV = nodeEnv ?? "development";
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-shots-"));
  let app: ReturnType<typeof createServiceApp> | null = null;
  const server = serve({
    fetch: (request, env) => (app ? app.fetch(request, env) : new Response(null, { status: 503 })),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const origin = `http://${input.host}:${(server.address() as AddressInfo).port}`;
  const auth = await createAuth({
    baseURL: origin,
    secret: "screenshots-secret-that-is-at-least-32-characters",
    database: `sqlite:${join(dir, "screenshots.sqlite")}`,
    options: input.options,
    logger: quiet,
    ...(input.mail ? { mail: input.mail } : {}),
  });
  app = createServiceApp(auth);
  return {
    origin,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await auth.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits for fonts and two frames, so nothing is caught mid-layout. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}
