import { existsSync } from "node:fs";
import { build } from "vite";
import { CHROMIUM } from "./helpers/browser.js";

/** Checks for the browser, then builds the application once (dist/app) before any browser test runs. */
export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests drive Debian's chromium, not found at ${CHROMIUM}. ` +
        "Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH); .ci/run does this itself.",
    );
  }
  await build({ configFile: "vite.config.ts", logLevel: "warn" });
}
