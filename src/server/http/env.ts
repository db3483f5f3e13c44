import type { Span } from "@opentelemetry/api";
import type { Context } from "hono";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import type { RouteMetrics } from "../observability/request-metrics.js";
import type { ScimConnectionRow } from "../scim/connections.service.js";
import type { KeyCaller } from "../services/api-key-verification.js";

/** What a request carries from its start to its answer, for the metrics and its span. */
export interface RequestTiming {
  startedAt: number;
  metrics: RouteMetrics | null;
  span: Span;
}

/** What each request carries from its start (http/request-start.ts) and its steps to the route handler. */
export interface AuthEnv {
  Variables: {
    auth: AuthContext;
    /** The incoming X-Request-Id when well-formed, else drawn at the start (http/request-start.ts). */
    requestId?: string;
    /** When the request started, its route's metrics and its span; cleared once the answer is recorded. */
    timing?: RequestTiming;
    /** The code of the error the request answered (respond-error.ts), for the metrics. */
    errorCode?: string;
    /** The parsed JSON or form body of a POST; `{}` when there is none. */
    body: Record<string, unknown>;
    clientIp: string | null;
    /** Set once a handler has resolved the caller's session, so it is read at most once per request. */
    session?: SessionWithUser | null;
    /** When this request first read a session from the database (ms): the stamp its cookie cache carries. */
    sessionReadAt?: number;
    /** A SCIM protocol request's directory: the connection its bearer token belongs to (scim/protocol.http.ts). */
    directory?: ScimConnectionRow;
    /** The API key the request came with, on an endpoint that accepts keys (http/route.ts). */
    apiKey?: KeyCaller;
  };
}

/** One step of the request prelude (route.ts): it returns to continue, or throws an AuthError to answer. */
export type RequestStep = (c: Context<AuthEnv>) => void | Promise<void>;
