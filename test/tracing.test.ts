import { type Attributes, type Span, type SpanOptions, type SpanStatus, type Tracer, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * What an app's tracer provider receives, kept in memory: the test stands where the app's SDK and
 * exporter would (Gatehouse adds no exporter; it only speaks @opentelemetry/api).
 */
interface FinishedSpan {
  name: string;
  kind: number | undefined;
  attributes: Attributes;
  status: SpanStatus | undefined;
}

function recordingProvider(finished: FinishedSpan[]) {
  const tracer: Tracer = {
    startSpan(name: string, options: SpanOptions = {}): Span {
      const record: FinishedSpan = {
        name,
        kind: options.kind,
        attributes: { ...options.attributes },
        status: undefined,
      };
      const span = {
        spanContext: () => ({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 }),
        isRecording: () => true,
        setAttribute: (key: string, value: unknown) => {
          record.attributes[key] = value as never;
          return span;
        },
        setAttributes: (attributes: Attributes) => {
          Object.assign(record.attributes, attributes);
          return span;
        },
        setStatus: (status: SpanStatus) => {
          record.status = status;
          return span;
        },
        end: () => finished.push(record),
        addEvent: () => span,
        addLink: () => span,
        addLinks: () => span,
        updateName: () => span,
        recordException: () => {},
      };
      return span as unknown as Span;
    },
    startActiveSpan: (() => {
      throw new Error("not used");
    }) as never,
  };
  return { getTracer: () => tracer };
}

describe("traces through @opentelemetry/api", () => {
  let server: TestServer;
  const finished: FinishedSpan[] = [];

  beforeAll(async () => {
    trace.setGlobalTracerProvider(recordingProvider(finished));
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    trace.disable();
  });

  it("makes one server span per request, named by its route template, with status and request id", async () => {
    const { browser } = await signUp(server);
    finished.length = 0;
    const response = await browser.get("/get-session");
    await browser.get(`/random-${Math.random().toString(36).slice(2)}`);
    expect(finished).toHaveLength(2);
    const [session, unknown] = finished;
    expect(session).toMatchObject({
      name: "GET /api/auth/get-session",
      kind: 1, // SpanKind.SERVER
      attributes: {
        "http.request.method": "GET",
        "http.route": "/api/auth/get-session",
        "http.response.status_code": 200,
        "gatehouse.request_id": response.headers.get("x-request-id"),
      },
    });
    expect(session?.status).toBeUndefined();
    expect(unknown).toMatchObject({ name: "(unknown route)", attributes: { "http.response.status_code": 404 } });
  });

  it("ends the span of a refused request too, a 4xx not marked as the server's error", async () => {
    finished.length = 0;
    const response = await server
      .browser()
      .post("/sign-in/email", { email: "nobody@example.com", password: "x".repeat(10) });
    expect(response.status).toBe(401);
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      name: "POST /api/auth/sign-in/email",
      attributes: { "http.response.status_code": 401 },
    });
    expect(finished[0]?.status).toBeUndefined();
  });
});
