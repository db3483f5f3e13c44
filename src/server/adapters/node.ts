import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Auth } from "../auth.js";
import { consoleLogger } from "../logger.js";

/**
 * `gatehouse-auth/node`: the auth handler for node:http-style servers (node:http, Express, Fastify's raw
 * request and reply). The framework keeps everything outside the base path.
 */

/** An Auth, or anything with its handler (the service's logger is used when there is one). */
type HandlerSource = Pick<Auth, "handler"> & { context?: Pick<Auth["context"], "logger"> };

export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Framework request fields the handler reads when present (Express sets both). */
interface FrameworkRequest extends IncomingMessage {
  /** Express: the path before a mounting `app.use(path, ...)` stripped it. */
  originalUrl?: string;
  /** A body a middleware (express.json(), express.urlencoded(), express.raw/text()) has already read. */
  body?: unknown;
}

/**
 * `http.createServer(toNodeHandler(auth))`, `app.all("/api/auth/*splat", toNodeHandler(auth))`.
 * The body streams through; every Set-Cookie is kept; the socket travels in the same binding
 * @hono/node-server gives (`{incoming, outgoing}`), so the client IP reaches the rate limiter.
 * It never rejects: a failure answers 500 (or ends a reply already under way), so the host server
 * keeps running.
 *
 * @example
 * const app = express();
 * app.all("/api/auth/*splat", toNodeHandler(auth));
 * app.use(express.json()); // your own routes' parsers
 * // or without a framework:
 * http.createServer(toNodeHandler(auth)).listen(3000);
 */
export function toNodeHandler(auth: HandlerSource | Promise<HandlerSource>): NodeHandler {
  return async (incoming, outgoing) => {
    let source: HandlerSource | undefined;
    try {
      const request = toRequest(incoming);
      if (!request) {
        sendJson(outgoing, 400, { code: "BAD_REQUEST", message: "The request URL or Host header is not valid" });
        return;
      }
      source = await auth;
      const response = await source.handler(request, { incoming, outgoing });
      await writeResponse(response, outgoing, incoming.method === "HEAD");
    } catch (error) {
      // A caller that hung up mid-reply is not a server fault.
      if ((error as { code?: string }).code !== "ERR_STREAM_PREMATURE_CLOSE") {
        const logger = source?.context?.logger ?? consoleLogger;
        logger.error("node handler failed", { error: error instanceof Error ? error.message : String(error) });
      }
      if (!outgoing.headersSent) {
        sendJson(outgoing, 500, { code: "INTERNAL_SERVER_ERROR", message: "Internal Server Error" });
      } else {
        outgoing.destroy();
      }
    }
  };
}

/**
 * Node's header object as a `Headers`, for `auth.api.getSession({ headers: fromNodeHeaders(req.headers) })`.
 *
 * @example
 * app.get("/api/me", async (req, res) => {
 *   const data = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
 *   if (!data) return void res.status(401).json({ code: "UNAUTHORIZED", message: "Sign in first" });
 *   res.json(data.user);
 * });
 */
export function fromNodeHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not headers.
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const item of value) result.append(name, item);
    else result.set(name, value);
  }
  return result;
}

function toRequest(incoming: FrameworkRequest): Request | null {
  const scheme = (incoming.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http";
  const host = incoming.headers.host ?? incoming.headers[":authority"];
  let url: URL;
  try {
    url = new URL(`${scheme}://${host}${incoming.originalUrl ?? incoming.url ?? "/"}`);
  } catch {
    return null;
  }
  const headers = fromNodeHeaders(incoming.headers);
  const method = incoming.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });

  if (incoming.readableEnded || incoming.body !== undefined) {
    // A middleware already read the stream: hand the service the same bytes again.
    const body = reencodeParsedBody(incoming.body, headers.get("content-type"));
    headers.delete("content-encoding"); // body parsers inflate
    if (body === null) headers.delete("content-length");
    else headers.set("content-length", String(Buffer.byteLength(body)));
    return new Request(url, { method, headers, body: body as BodyInit | null });
  }
  return new Request(url, {
    method,
    headers,
    body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
}

/**
 * The bytes behind a body some middleware parsed: JSON and form bodies are written out again, raw
 * and text bodies are passed as they are. Form fields come back as strings, as the service reads them.
 */
function reencodeParsedBody(body: unknown, contentType: string | null): string | Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || Buffer.isBuffer(body)) return body;
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded" && typeof body === "object") {
    return new URLSearchParams(
      Object.entries(body as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
    ).toString();
  }
  return JSON.stringify(body);
}

async function writeResponse(response: Response, outgoing: ServerResponse, isHead: boolean): Promise<void> {
  outgoing.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") outgoing.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader("set-cookie", cookies);
  if (isHead || !response.body) {
    await response.body?.cancel();
    outgoing.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), outgoing);
}

function sendJson(outgoing: ServerResponse, status: number, body: { code: string; message: string }): void {
  outgoing.statusCode = status;
  outgoing.setHeader("content-type", "application/json");
  outgoing.end(JSON.stringify(body));
}
