/** The cookies a server-side client holds, by name: what a browser's cookie store would send back. */
export type CookieJar = Map<string, string>;

/** A fetch that keeps cookies, and the jar it keeps them in. */
export type CookieKeepingFetch = typeof fetch & { readonly cookies: CookieJar; cookieHeader(): string };

const EXPIRED = /(?:^|;)\s*max-age=(?:0|-\d+)\s*(?:;|$)/i;

/**
 * Node's fetch keeps no cookies: this one keeps the ones a service sets, as a browser would (an
 * empty value or Max-Age=0 deletes), and sends them back on every request. It holds one service's
 * cookies (no domain or path matching): give each client its own.
 *
 * @example
 * const keeping = cookieKeepingFetch();
 * await keeping("https://auth.example.com/api/auth/sign-in/email", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", origin: "https://auth.example.com" },
 *   body: JSON.stringify({ email, password }),
 * });
 * await keeping("https://auth.example.com/api/auth/get-session"); // sent with the session cookie
 * await fetch("https://api.example.com/me", { headers: { cookie: keeping.cookieHeader() } });
 */
export function cookieKeepingFetch(base: typeof fetch = globalThis.fetch): CookieKeepingFetch {
  const cookies: CookieJar = new Map();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const keeping = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", cookieHeader());
    const response = await base(new Request(request, { headers }));
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";", 1)[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || EXPIRED.test(line) || isPast(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  return Object.assign(keeping, { cookies, cookieHeader });
}

function isPast(setCookie: string): boolean {
  const expires = /(?:^|;)\s*expires=([^;]+)/i.exec(setCookie)?.[1];
  return expires !== undefined && Date.parse(expires) <= Date.now();
}
