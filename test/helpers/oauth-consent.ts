import { expect } from "vitest";
import type { TestBrowser } from "./browser.js";

/**
 * A signed-in `browser` through the authorization URL to the consent page and Allow, as the
 * provider's screens would: the consent page it was sent to, and the callback URL carrying the code.
 */
export async function allowAtConsent(
  browser: TestBrowser,
  authorizeUrl: string,
): Promise<{ consent: URL; callback: URL }> {
  const toConsent = await browser.get(authorizeUrl);
  expect(toConsent.status).toBe(302);
  const consent = new URL(toConsent.headers.get("location")!);
  const answer = await browser.post("/oauth2/consent", { accept: true, oauth_query: consent.search.slice(1) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { consent, callback: new URL(answer.body.url) };
}
