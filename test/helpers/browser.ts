/**
 * A minimal browser for tests over real HTTP: a cookie jar that honours Max-Age and deletion, and
 * an Origin header on state-changing requests, as a page on the app's origin would send.
 */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text (or null for an empty body). */
  body: T;
  /** Set-Cookie lines of this response. */
  setCookies: string[];
}

export interface RequestOptions {
  method?: string;
  /** JSON body (objects) or raw text (strings, sent with the given content type). */
  body?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Send no Origin header even for a POST (for origin-check tests). */
  noOrigin?: boolean;
}

export class TestBrowser {
  readonly #cookies = new Map<string, string>();

  constructor(
    readonly origin: string,
    readonly basePath = "/api/auth",
    /** How requests go out: another fetch trusts a test's own TLS certificate (helpers/proxy.ts). */
    readonly send: typeof fetch = fetch,
  ) {}

  /** Requests a path under the auth base path (or an absolute URL). */
  async request<T = any>(path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const url = path.startsWith("http") ? path : `${this.origin}${this.basePath}${path}`;
    const method = options.method ?? (options.body !== undefined || options.form ? "POST" : "GET");
    const headers = new Headers(options.headers);
    let body: string | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded");
    } else if (typeof options.body === "string") {
      body = options.body;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
    if (method !== "GET" && method !== "HEAD" && !options.noOrigin && !headers.has("origin")) {
      headers.set("origin", this.origin);
    }
    const cookieHeader = this.cookieHeader();
    if (cookieHeader && !headers.has("cookie")) headers.set("cookie", cookieHeader);

    const response = await this.send(url, { method, headers, body, redirect: "manual" });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.#store(line);
    const text = await response.text();
    const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
    const parsed = text === "" ? null : isJson ? JSON.parse(text) : text;
    return { status: response.status, headers: response.headers, body: parsed as T, setCookies };
  }

  get<T = any>(path: string, options: Omit<RequestOptions, "method"> = {}) {
    return this.request<T>(path, { ...options, method: "GET" });
  }

  post<T = any>(path: string, body: unknown = {}, options: Omit<RequestOptions, "method" | "body"> = {}) {
    return this.request<T>(path, { ...options, method: "POST", body });
  }

  cookie(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  cookieNames(): string[] {
    return [...this.#cookies.keys()];
  }

  setCookie(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  /** Another browser holding a copy of these cookies (a stolen copy, or the same user on another instance). */
  copyTo(origin: string = this.origin): TestBrowser {
    const copy = new TestBrowser(origin, this.basePath, this.send);
    for (const [name, value] of this.#cookies) copy.setCookie(name, value);
    return copy;
  }

  clearCookies(): void {
    this.#cookies.clear();
  }

  cookieHeader(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  #store(line: string): void {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const maxAge = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith("max-age="));
    if (value === "" || (maxAge && Number(maxAge.split("=")[1]) <= 0)) this.#cookies.delete(name);
    else this.#cookies.set(name, value);
  }
}

/** Parses one Set-Cookie line into its name, value and attributes (lowercased keys). */
export function parseSetCookie(line: string): {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
} {
  const [pair = "", ...rest] = line.split(";");
  const eq = pair.indexOf("=");
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [key = "", ...value] = part.trim().split("=");
    attributes[key.toLowerCase()] = value.length > 0 ? value.join("=") : true;
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}
