import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";

/**
 * A span per request through @opentelemetry/api alone: the app registers a tracer provider (and its
 * exporter) if it wants traces. Without one the API answers with its no-op: a non-recording span and
 * nothing more, so no attribute is set and no context is made for it.
 */
const tracer = trace.getTracer("gatehouse");

const headersGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** A route's span name and fixed attributes, made once at start-up (OpenTelemetry's HTTP conventions). */
export interface RouteSpan {
  name: string;
  attributes: Attributes;
}

/** `route` null: no endpoint matched (a 404), so the span names no route. */
export function routeSpan(method: string, route: string | null): RouteSpan {
  if (route === null) return { name: "(unknown route)", attributes: Object.freeze({}) };
  return {
    name: `${method} ${route}`,
    attributes: Object.freeze({ "http.request.method": method, "http.route": route }),
  };
}

/** Starts the request's server span, a child of the caller's trace when its headers carry one (traceparent). */
export function startRequestSpan(route: RouteSpan, headers: Headers): Span {
  const parent = propagation.extract(ROOT_CONTEXT, headers, headersGetter);
  return tracer.startSpan(route.name, { kind: SpanKind.SERVER, attributes: route.attributes }, parent);
}

/** Runs the request's work with its span active, so spans the app's instrumentations make nest under it. */
export function withinSpan<T>(span: Span, work: () => T): T {
  if (!span.isRecording()) return work();
  return context.with(trace.setSpan(context.active(), span), work);
}

export function endRequestSpan(span: Span, status: number, requestId: string): void {
  if (span.isRecording()) {
    span.setAttribute("http.response.status_code", status);
    span.setAttribute("gatehouse.request_id", requestId);
    // Server spans: a 4xx is the client's mistake, only a 5xx is the span's error.
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
