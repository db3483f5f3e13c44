import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInThroughApi, signUpThroughApi } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/*
 * response_mode=form_post in a real browser: the page the authorization endpoint answers must
 * submit itself under its own Content-Security-Policy (the script allowed by hash, the form's
 * target allowed by form-action), landing a POST with the code at the relying party.
 */

const e2e = setUpServiceAndBrowser({ options: { oauthProvider: { enabled: true } } });

describe("OAuth form_post in Chromium", () => {
  let rp: Server;
  let callback = "";
  const posted: string[] = [];

  beforeAll(async () => {
    rp = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        if (req.method === "POST") posted.push(body);
        res.writeHead(200, { "content-type": "text/html" }).end("<p id=done>received</p>");
      });
    });
    await new Promise<void>((resolve) => rp.listen(0, "127.0.0.1", resolve));
    callback = `http://127.0.0.1:${(rp.address() as AddressInfo).port}/callback`;
  });
  afterAll(async () => {
    await new Promise((resolve) => rp?.close(resolve));
  });

  it("the answer page POSTs the code to the relying party by itself", async () => {
    const origin = e2e.service.origin;
    const user = { name: "Form Post", email: `form-post-${Date.now()}@example.com`, password: "correct horse battery" };
    await signUpThroughApi(origin, user);
    const context = await e2e.newContext();
    await signInThroughApi(context, origin, user);
    const created = await context.request.post(`${origin}/api/auth/oauth2/create-client`, {
      data: { client_name: "Form post RP", redirect_uris: [callback], token_endpoint_auth_method: "none" },
      headers: { origin },
    });
    expect(created.status()).toBe(201);
    const clientId = ((await created.json()) as { client_id: string }).client_id;
    const verifier = randomBytes(32).toString("base64url");
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: callback,
      response_type: "code",
      response_mode: "form_post",
      scope: "openid",
      state: "browser-state",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    });
    // The consent (the app has no consent screen yet): through the API, as the page would post it.
    const toConsent = await context.request.get(`${origin}/api/auth/oauth2/authorize?${query}`, { maxRedirects: 0 });
    const consentQuery = new URL(toConsent.headers().location!).search.slice(1);
    const consent = await context.request.post(`${origin}/api/auth/oauth2/consent`, {
      data: { accept: true, oauth_query: consentQuery },
      headers: { origin },
    });
    const next = ((await consent.json()) as { url: string }).url;

    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") violations.push(message.text());
    });
    await page.goto(next);
    await page.locator("#done").waitFor();
    expect(page.url()).toBe(callback);
    expect(violations).toEqual([]);
    const fields = new URLSearchParams(posted.at(-1));
    expect(fields.get("state")).toBe("browser-state");
    expect(fields.get("iss")).toBe(`${origin}/api/auth`);
    expect(fields.get("code")).toMatch(/^[\w-]{43}$/);
  });
});
