import type { HttpMethod } from "./paths.js";

/** What a failed call gives: the server's code and message, and the HTTP status. */
export interface AuthClientError {
  /** The catalogue code; for a reply without a body, a name for the status (e.g. `UNAUTHORIZED`). */
  code: string;
  message: string;
  /** 0 when the server could not be reached. */
  status: number;
  statusText: string;
}

export type Result<T> = { data: T; error: null } | { data: null; error: AuthClientError };

/** Per-call options, the second argument of every call. */
export interface FetchOptions {
  method?: HttpMethod;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Return data directly and throw AuthClientRequestError instead of returning `{data, error}`. */
  throw?: boolean;
  /** Do not follow `{redirect: true, url}` replies. */
  disableRedirect?: boolean;
  onSuccess?: (data: unknown) => void;
  onError?: (error: AuthClientError) => void;
}

export class AuthClientRequestError extends Error {
  override name = "AuthClientRequestError";
  constructor(readonly error: AuthClientError) {
    super(error.message);
  }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

/** JSON.parse that turns ISO-8601 date strings back into Date objects. */
export function parseJsonWithDates(text: string): unknown {
  return JSON.parse(text, (_key, value) =>
    typeof value === "string" && ISO_DATE.test(value) ? new Date(value) : value,
  );
}

/** Names for statuses that arrive without a body (e.g. 401 on some organization routes). */
const STATUS_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_ENTITY",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
};

export interface RawRequest {
  url: string;
  method: HttpMethod;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  fetch: typeof fetch;
}

/** One HTTP exchange with credentials included; never throws, always `{data, error}`. */
export async function sendRequest<T>(request: RawRequest): Promise<Result<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  let body: string | undefined;
  if (request.method === "POST") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.body ?? {});
  }
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: request.method,
      headers,
      body,
      credentials: "include",
      signal: request.signal,
    });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : "Network error";
    return { data: null, error: { code: "NETWORK_ERROR", message, status: 0, statusText: "" } };
  }
  const text = await response.text();
  let parsed: unknown = null;
  if (text !== "") {
    try {
      parsed = parseJsonWithDates(text);
    } catch {
      parsed = text;
    }
  }
  if (response.ok) return { data: parsed as T, error: null };
  const reply = parsed && typeof parsed === "object" ? (parsed as { code?: unknown; message?: unknown }) : {};
  const statusText = response.statusText;
  return {
    data: null,
    error: {
      code: typeof reply.code === "string" ? reply.code : (STATUS_CODES[response.status] ?? `HTTP_${response.status}`),
      message: typeof reply.message === "string" ? reply.message : statusText || `HTTP ${response.status}`,
      status: response.status,
      statusText,
    },
  };
}
