import { build } from "vite";

/** Builds the application once (dist/app) before any browser test runs. */
export default async function setup(): Promise<void> {
  await build({ configFile: "vite.config.ts", logLevel: "warn" });
}
