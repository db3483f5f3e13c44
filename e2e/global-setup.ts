import { existsSync } from "node:fs";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { CHROMIUM, launchBrowserServer } from "./helpers/browser.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The one chromium every browser test file connects to (launching one per file costs seconds). */
    browserEndpoint: string;
  }
}

/**
 * The application as `npm run build` builds it. Vitest sets NODE_ENV to "test", which Vite would
 * otherwise build in (React's development build: what no user runs, and several times the browser's
 * work per page); restored before any test starts.
 */
async function buildForProduction(): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: "vite.config.ts", logLevel: "warn" });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Checks for the browser, builds the application once (dist/app) and starts one chromium, before any
 * browser test runs; closes the browser after the last.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests drive Debian's chromium headless shell, not found at ${CHROMIUM}. ` +
        "Install it with `apt-get install -y chromium-headless-shell` (or set CHROMIUM_PATH); .ci/run does this itself.",
    );
  }
  const [server] = await Promise.all([launchBrowserServer(), buildForProduction()]);
  project.provide("browserEndpoint", server.wsEndpoint());
  return () => server.close();
}
