import { request } from "node:http";
import { parseSetCookie, type TestBrowser } from "./browser.js";

export interface NavigationResponse {
  status: number;
  location: string | null;
  setCookies: string[];
}

/**
 * A GET as a browser's navigation sends it, over node:http: fetch would replace Sec-Fetch-Mode with
 * `cors`. The browser's cookies go along and the answer's cookies are kept in it.
 */
export function navigate(
  browser: TestBrowser,
  path: string,
  headers: Record<string, string>,
): Promise<NavigationResponse> {
  const url = new URL(path.startsWith("http") ? path : `${browser.origin}${browser.basePath}${path}`);
  const cookie = browser.cookieHeader();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", headers: { ...headers, ...(cookie ? { cookie } : {}) } }, (res) => {
      res.resume();
      res.on("end", () => {
        const setCookies = res.headers["set-cookie"] ?? [];
        for (const line of setCookies) {
          const { name, value, attributes } = parseSetCookie(line);
          if (value !== "" && attributes["max-age"] !== "0") browser.setCookie(name, value);
        }
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, setCookies });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
