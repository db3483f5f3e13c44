import type { FullOrganization, Organization } from "../contract/api-models.js";
import type { SessionWithUser } from "../contract/models.js";
import { type CookieJar, cookieKeepingFetch } from "./cookie-jar.js";
import type { AdditionalFieldTypes, WithFieldTypes } from "./fields.js";
import { isSafeRedirect, makesStale, methodFor, pathFor } from "./paths.js";
import { QueryStore } from "./query-store.js";
import { AuthClientRequestError, type FetchOptions, type Result, sendRequest } from "./request.js";
import type {
  AccountCalls,
  ActiveMember,
  AdminCalls,
  ApiKeyCalls,
  DeviceCalls,
  OAuth2Calls,
  OrganizationCalls,
  ScimCalls,
} from "./types.js";

export { type CookieJar, type CookieKeepingFetch, cookieKeepingFetch } from "./cookie-jar.js";
export type { AdditionalFieldTypes, InferAdditionalFields, WithFieldTypes } from "./fields.js";
export type { QueryState } from "./query-store.js";
export { QueryStore } from "./query-store.js";
export type { AuthClientError, FetchOptions, Result } from "./request.js";
export { AuthClientRequestError } from "./request.js";
export type * from "./types.js";

export interface AuthClientOptions {
  /** Origin of the service (`https://auth.example.com`), or a full API URL with its path. Default: the page's origin. */
  baseURL?: string;
  /** Where the API answers under baseURL. Default `/api/auth`. */
  basePath?: string;
  /** Headers for every request (outside a browser, an `Origin`: see createNodeAuthClient). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Follows `{redirect: true, url}` replies. Default: `window.location.href = url` in a browser. */
  navigate?: (url: string) => void;
  /** Where focus events come from (default `window`); the session is read again on focus. */
  focusTarget?: EventTarget | null;
  /** Milliseconds between focus-driven session reads, at least (default 5000). */
  focusRefetchIntervalMs?: number;
  /** Delay between a session-changing call and the session read that follows (default 10 ms). */
  refetchDelayMs?: number;
  now?: () => number;
}

export interface AuthClientStores {
  session: QueryStore<SessionWithUser | null>;
  activeOrganization: QueryStore<FullOrganization | null>;
  listOrganizations: QueryStore<Organization[]>;
  /** With `organizationPolicy` when the organization has a policy (what the session still owes). */
  activeMember: QueryStore<ActiveMember | null>;
}

export interface AuthClient extends AccountCalls {
  organization: OrganizationCalls;
  admin: AdminCalls;
  scim: ScimCalls;
  apiKey: ApiKeyCalls;
  oauth2: OAuth2Calls;
  device: DeviceCalls;
  /** The API root every path is appended to, e.g. `http://localhost:3000/api/auth`. */
  readonly apiURL: string;
  /** The server state the UI watches; React hooks subscribe to these. */
  readonly $store: AuthClientStores;
  /** Any path: `$fetch("/ok")`. */
  $fetch<T = unknown>(
    path: string,
    arg?: { body?: Record<string, unknown>; query?: Record<string, unknown> },
    options?: FetchOptions,
  ): Promise<Result<T>>;
  /** Stops listening to focus events. */
  dispose(): void;
}

/** Errors that only mean "nothing to show" for a store (no session, no active organization). */
const EMPTY_STATE_CODES = new Set(["UNAUTHORIZED", "NOT_AUTHENTICATED", "NO_ACTIVE_ORGANIZATION", "MEMBER_NOT_FOUND"]);

interface SessionHintValue {
  signedIn: boolean;
  activeOrganization: boolean;
}

/** The shape of the last session answer (never the session itself), in localStorage when there is one. */
const sessionHint = {
  key: "gatehouse.session-hint",
  read(): SessionHintValue | null {
    try {
      const raw = globalThis.localStorage?.getItem(this.key);
      return raw ? (JSON.parse(raw) as SessionHintValue) : null;
    } catch {
      return null;
    }
  },
  write(data: SessionWithUser | null): void {
    const value: SessionHintValue = {
      signedIn: Boolean(data?.session),
      activeOrganization: Boolean(data?.session?.activeOrganizationId),
    };
    try {
      globalThis.localStorage?.setItem(this.key, JSON.stringify(value));
    } catch {
      // Storage refused (private mode, quota): the stores simply wait for the session.
    }
  },
};

function emptyWhenAbsent<T>(result: Result<T>, empty: T): Result<T> {
  if (!result.error) return result;
  const { status, code } = result.error;
  if (status === 401 || status === 404 || EMPTY_STATE_CODES.has(code)) return { data: empty, error: null };
  return result;
}

function resolveApiURL(baseURL: string | undefined, basePath = "/api/auth"): string {
  const origin = baseURL ?? (typeof window !== "undefined" ? window.location.origin : "");
  if (origin === "") return basePath;
  const url = new URL(origin);
  if (url.pathname !== "/" && url.pathname !== "") return origin.replace(/\/+$/, "");
  return `${url.origin}${basePath}`;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The browser client: `client.signIn.email({...})` POSTs to `/sign-in/email` under the API root,
 * `client.organization.list()` GETs `/organization/list`; every call answers `{data, error}`.
 * `Fields` types the server's own fields (options `*.additionalFields`) on users, sessions and
 * organizations: `createAuthClient<{ user: { company: string | null } }>()`.
 *
 * @example
 * const client = createAuthClient({ baseURL: "https://auth.example.com" });
 * const { data, error } = await client.signIn.email({ email, password });
 * if (error) console.warn(error.code, error.message); // e.g. INVALID_EMAIL_OR_PASSWORD
 * else if ("twoFactorRedirect" in data) window.location.assign("/two-factor");
 */
// biome-ignore lint/complexity/noBannedTypes: {} means "no fields declared", which keeps the plain client type.
export function createAuthClient<Fields extends AdditionalFieldTypes = {}>(
  options: AuthClientOptions = {},
): WithFieldTypes<AuthClient, Fields> {
  const apiURL = resolveApiURL(options.baseURL, options.basePath);
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const refetchDelayMs = options.refetchDelayMs ?? 10;
  const navigate =
    options.navigate ??
    ((url: string) => {
      if (typeof window !== "undefined") window.location.href = url;
    });

  async function request<T>(path: string, arg: Record<string, any> | undefined, fetchOptions: FetchOptions = {}) {
    const { query, fetchOptions: inlineOptions, ...rest } = arg ?? {};
    const merged: FetchOptions = { ...inlineOptions, ...fetchOptions };
    const body = rest as Record<string, unknown>;
    const method = methodFor(path, body, merged.method);
    const result = await sendRequest<T>({
      url: `${apiURL}${path}${queryString(query)}`,
      method,
      body,
      headers: { ...options.headers, ...merged.headers },
      signal: merged.signal,
      fetch: fetchImpl,
    });
    if (result.error) {
      merged.onError?.(result.error);
      if (merged.throw) throw new AuthClientRequestError(result.error);
      return result;
    }
    // Reads change nothing: only a successful POST (or the verify-email link) makes the stores read
    // again, so a store's own GET never triggers itself.
    if (method === "POST" || path === "/verify-email") afterSuccess(path);
    merged.onSuccess?.(result.data);
    const data = result.data as { redirect?: unknown; url?: unknown } | null;
    if (!merged.disableRedirect && data && data.redirect === true && typeof data.url === "string") {
      if (isSafeRedirect(data.url)) navigate(data.url);
    }
    return merged.throw ? (result.data as any) : result;
  }

  const get = <T>(path: string) => request<T>(path, undefined, { method: "GET" });
  /**
   * The organization stores ask the server only when there is something to ask about: signed out,
   * or with no active organization, their answer is known (empty) and the console stays quiet. What
   * the last get-session said is remembered across page loads (sessionHint), so a signed-in page asks
   * for the session and its organization state at once instead of one after the other.
   */
  const signedIn = async () => {
    await stores.session.start();
    return stores.session.getSnapshot().data;
  };
  const whenSignedIn = async <T>(
    empty: T,
    load: () => Promise<Result<T>>,
    needsActive: boolean,
  ): Promise<Result<T>> => {
    const hint = sessionHint.read();
    if (!(hint?.signedIn && (!needsActive || hint.activeOrganization))) {
      const current = await signedIn();
      if (!current?.session || (needsActive && !current.session.activeOrganizationId))
        return { data: empty, error: null };
    }
    return emptyWhenAbsent(await load(), empty);
  };
  const stores: AuthClientStores = {
    session: new QueryStore(async () => emptyWhenAbsent(await get<SessionWithUser | null>("/get-session"), null)),
    activeOrganization: new QueryStore(() =>
      whenSignedIn(null, () => get<FullOrganization | null>("/organization/get-full-organization"), true),
    ),
    listOrganizations: new QueryStore(() => whenSignedIn([], () => get<Organization[]>("/organization/list"), false)),
    activeMember: new QueryStore(() =>
      whenSignedIn(null, () => get<ActiveMember | null>("/organization/get-active-member"), true),
    ),
  };

  stores.session.onChange(() => {
    const { data, isPending } = stores.session.getSnapshot();
    if (!isPending) sessionHint.write(data);
  });

  const later = (store: QueryStore<any>) => {
    if (!store.started) return;
    if (refetchDelayMs <= 0) void store.refetch();
    else setTimeout(() => void store.refetch(), refetchDelayMs);
  };

  function afterSuccess(path: string): void {
    if (path === "/sign-out" || path === "/delete-user" || path === "/revoke-sessions") {
      // Known outcome: show it at once, then confirm with the server.
      stores.session.setData(null);
    }
    if (makesStale(path, "session")) later(stores.session);
    if (makesStale(path, "activeOrganization")) later(stores.activeOrganization);
    if (makesStale(path, "organizations")) later(stores.listOrganizations);
    if (makesStale(path, "activeMember")) later(stores.activeMember);
  }

  // Coming back to the tab re-reads the session, at most once per interval.
  const focusTarget = options.focusTarget === undefined ? (globalThis as any).window : options.focusTarget;
  const focusInterval = options.focusRefetchIntervalMs ?? 5000;
  let lastFocusRefetch = Number.NEGATIVE_INFINITY;
  const onFocus = () => {
    if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
    if (!stores.session.started || now() - lastFocusRefetch < focusInterval) return;
    lastFocusRefetch = now();
    void stores.session.refetch();
  };
  focusTarget?.addEventListener?.("focus", onFocus);
  focusTarget?.addEventListener?.("visibilitychange", onFocus);

  const special: Record<string, unknown> = {
    apiURL,
    $store: stores,
    $fetch: (
      path: string,
      arg: { body?: Record<string, unknown>; query?: Record<string, unknown> } = {},
      fo?: FetchOptions,
    ) => request(path, { ...arg.body, ...(arg.query ? { query: arg.query } : {}) }, fo),
    dispose: () => {
      focusTarget?.removeEventListener?.("focus", onFocus);
      focusTarget?.removeEventListener?.("visibilitychange", onFocus);
    },
  };

  const callable = (segments: string[]): any =>
    new Proxy(() => {}, {
      get: (_target, prop) => (typeof prop === "string" && prop !== "then" ? callable([...segments, prop]) : undefined),
      apply: (_target, _self, args: [Record<string, any>?, FetchOptions?]) =>
        request(pathFor(segments), args[0], args[1]),
    });

  return new Proxy(special, {
    get: (target, prop) => {
      if (typeof prop !== "string" || prop === "then") return undefined;
      return prop in target ? target[prop] : callable([prop]);
    },
  }) as unknown as WithFieldTypes<AuthClient, Fields>;
}

export interface NodeAuthClientOptions extends Omit<AuthClientOptions, "baseURL" | "focusTarget"> {
  /** The service's origin (`https://auth.example.com`), or its full API URL. Required outside a browser. */
  baseURL: string;
  /**
   * The Origin header every request carries, as a browser's would: the service refuses a
   * state-changing request without one (MISSING_OR_NULL_ORIGIN) or from an origin it does not trust
   * (INVALID_ORIGIN). Default: baseURL's origin, trusted when it is the service's BASE_URL (or listed
   * in trustedOrigins).
   */
  origin?: string;
}

/**
 * The browser client for Node and other server runtimes (scripts, workers, tests): it sends an
 * Origin, keeps the session cookies between calls and listens to no focus events. `cookies` is the
 * jar, to read or to hand a session on.
 *
 * @example
 * const auth = createNodeAuthClient({ baseURL: "https://auth.example.com" });
 * await auth.signIn.email({ email, password }); // the session cookie is kept in auth.cookies
 * const { data } = await auth.organization.list(); // sent with that cookie
 */
// biome-ignore lint/complexity/noBannedTypes: {} means "no fields declared", as in createAuthClient.
export function createNodeAuthClient<Fields extends AdditionalFieldTypes = {}>(
  options: NodeAuthClientOptions,
): WithFieldTypes<AuthClient, Fields> & { cookies: CookieJar } {
  const fetchWithCookies = cookieKeepingFetch(options.fetch);
  const origin = options.origin ?? new URL(options.baseURL).origin;
  const client = createAuthClient<Fields>({
    ...options,
    headers: { origin, ...options.headers },
    fetch: fetchWithCookies,
    focusTarget: null,
  });
  return Object.assign(client, { cookies: fetchWithCookies.cookies });
}
