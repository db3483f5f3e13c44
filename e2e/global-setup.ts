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
 * Checks for the browser, builds the application once (dist/app) and starts one chromium, before any
 * browser test runs; closes the browser after the last.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests drive Debian's chromium, not found at ${CHROMIUM}. ` +
        "Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH); .ci/run does this itself.",
    );
  }
  const [server] = await Promise.all([
    launchBrowserServer(),
    build({ configFile: "vite.config.ts", logLevel: "warn" }),
  ]);
  project.provide("browserEndpoint", server.wsEndpoint());
  return () => server.close();
}
