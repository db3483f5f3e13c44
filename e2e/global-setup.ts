import { build } from "vite";
import type { TestProject } from "vitest/node";
import { unavailable } from "../test/helpers/prerequisites.js";
import { launchBrowserServer } from "./helpers/browser.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The one chromium every browser test file connects to (launching one per file costs seconds). */
    browserEndpoint: string;
    /** Why no browser test can run here (and what to run), or null when they run. */
    browserUnavailable: string | null;
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
 * browser test runs; closes the browser after the last. Without the browser (which `npm test`
 * installs where it may), every browser test is skipped with the reason.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reason = unavailable("browser");
  project.provide("browserUnavailable", reason);
  if (reason) {
    console.warn(`browser tests skipped: ${reason}`);
    project.provide("browserEndpoint", "");
    return async () => {};
  }
  const [server] = await Promise.all([launchBrowserServer(), buildForProduction()]);
  project.provide("browserEndpoint", server.wsEndpoint());
  return () => server.close();
}
