/**
 * Node's fetch keeps no cookies: this one keeps them as a browser would (Max-Age=0 or an empty
 * value deletes), so clients written for browsers can drive the real server from tests.
 */
export function cookieFetch(): typeof fetch & { jar: Map<string, string> } {
  const jar = new Map<string, string>();
  const fetchWithCookies = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(new Request(request, { headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0(;|$)/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return Object.assign(fetchWithCookies, { jar });
}
