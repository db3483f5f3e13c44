import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 53: better-auth's own browser client for API keys (@better-auth/api-key's apiKeyClient,
 * beside organizationClient) in a real page, against the real service: a page that imports them as an
 * application would, bundled for the browser.
 */
const REPO = resolve(import.meta.dirname, "..");
let appDir = "";

const ENTRY = `
import { apiKeyClient } from "@better-auth/api-key/client";
import { createAuthClient } from "better-auth/client";
import { organizationClient } from "better-auth/client/plugins";
window.authClient = createAuthClient({
  baseURL: location.origin,
  plugins: [organizationClient(), apiKeyClient()],
});
document.body.dataset.ready = "yes";
`;

beforeAll(async () => {
  await mkdir(join(REPO, "dist"), { recursive: true });
  appDir = await mkdtemp(join(REPO, "dist", "api-key-client-"));
  await build({
    stdin: { contents: ENTRY, resolveDir: REPO, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile: join(appDir, "client.js"),
    logLevel: "warning",
  });
  await writeFile(
    join(appDir, "index.html"),
    `<!doctype html><html lang="en"><head><title>keys</title><script type="module" src="/client.js"></script></head><body></body></html>`,
  );
});
afterAll(async () => {
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

const run = setUpServiceAndBrowser(() => ({ appDir, options: { apiKey: { enabled: true } } }));

describe("better-auth's apiKeyClient in the browser", () => {
  it("creates, lists and deletes an organization's key; the key acts over HTTP until deleted", async () => {
    const context = await run.newContext();
    const page = await context.newPage();
    await page.goto(`${run.service.origin}/`);
    await page.waitForSelector("body[data-ready=yes]", { state: "attached" });
    const email = `apikey-client-${Date.now()}@example.com`;
    const result = await page.evaluate(async (email) => {
      const client = (window as any).authClient;
      const signedUp = await client.signUp.email({ name: "Key Maker", email, password: "sturdy-pass-123" });
      const org = await client.organization.create({ name: "Key Co", slug: `key-co-${Date.now()}` });
      const organizationId = org.data.id;
      const created = await client.apiKey.create({
        name: "deploy",
        organizationId,
        permissions: { member: ["update"] },
      });
      const listed = await client.apiKey.list({ query: { organizationId } });
      const ask = async () => {
        const res = await fetch("/api/auth/organization/has-permission", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": created.data.key },
          credentials: "omit",
          body: JSON.stringify({ permissions: { member: ["update"] } }),
        });
        return [res.status, (await res.json()).success ?? null];
      };
      const before = await ask();
      const deleted = await client.apiKey.delete({ keyId: created.data.id });
      const after = await ask();
      return {
        signedUp: signedUp.error,
        key: created.data.key,
        listedIds: listed.data.apiKeys.map((k: { id: string }) => k.id),
        createdId: created.data.id,
        before,
        deleted: deleted.data,
        after,
      };
    }, email);
    expect(result.signedUp).toBeNull();
    expect(result.key).toMatch(/^gk_[A-Za-z0-9]{46}$/);
    expect(result.listedIds).toEqual([result.createdId]);
    expect(result.before).toEqual([200, true]);
    expect(result.deleted).toEqual({ success: true });
    expect(result.after[0]).toBe(401);
  });
});
