import type { TestBrowser, TestResponse } from "./browser.js";
import { CLIENT_ID, CLIENT_SECRET, type TestOidcProvider } from "./oidc.js";

/** socialProviders entries pointing at the local provider (`oidc` generic, `google` preset, ...). */
export function providerOptions(oidc: TestOidcProvider, extra: Record<string, unknown> = {}) {
  return { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, issuer: oidc.issuer, ...extra };
}

/**
 * A whole redirect flow in one browser: POST the start route, log in at the provider as `sub`,
 * come back to the callback (posting the form for form_post). Returns the start reply and the
 * callback's final answer (a 302 from GET /callback/:id).
 */
export async function socialFlow(
  browser: TestBrowser,
  oidc: TestOidcProvider,
  sub: string,
  input: { path?: string; body: Record<string, unknown>; deny?: boolean },
): Promise<{ start: TestResponse; callback: TestResponse }> {
  const start = await browser.post(input.path ?? "/sign-in/social", input.body);
  if (start.status !== 200) throw new Error(`start failed: ${start.status} ${JSON.stringify(start.body)}`);
  const result = await oidc.authorize(start.body.url, sub, { deny: input.deny });
  if (result.kind === "redirect") return { start, callback: await browser.get(result.location) };
  // form_post: the provider's page posts from the provider's origin.
  const posted = await browser.request(result.action, {
    method: "POST",
    form: result.fields,
    headers: { origin: oidc.issuer },
  });
  const location = posted.headers.get("location");
  if (posted.status !== 302 || !location) throw new Error(`form_post answered ${posted.status}`);
  return { start, callback: await browser.get(location) };
}

export function locationOf(response: TestResponse): URL {
  const location = response.headers.get("location");
  if (!location) throw new Error(`no location (status ${response.status})`);
  return new URL(location, "http://relative.invalid");
}
