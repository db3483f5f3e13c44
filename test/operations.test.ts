import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApp } from "../src/service-app.js";
import { startMailCapture } from "./helpers/mail.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Prometheus' text format: each series line `name{labels} value`, as a map from `name{labels}` to value. */
async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const response = await fetch(`${server.origin}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  const series = new Map<string, number>();
  for (const line of (await response.text()).split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** A series' value by name and labels, in the order prom-client writes them (0 when absent). */
function value(series: Map<string, number>, name: string, labels: Record<string, string | number> = {}): number {
  const text = Object.entries(labels)
    .map(([key, v]) => `${key}="${v}"`)
    .join(",");
  return series.get(text ? `${name}{${text}}` : name) ?? 0;
}

describe("operations: metrics, request ids", () => {
  let server: TestServer;
  let closedSmtp: string;

  beforeAll(async () => {
    // Mail that cannot go out stays in the outbox: its depth is then what the test queued.
    const capture = await startMailCapture();
    closedSmtp = capture.url;
    await capture.close();
    server = await startTestServer({
      options: { metrics: { enabled: true }, emailVerification: { sendOnSignUp: true } },
      extra: {
        mail: { smtpUrl: closedSmtp, retryBaseMs: 3_600_000 },
        hooks: {
          before: ({ path }: { path: string }) => {
            if (path === "/list-accounts") throw new Error("a bug in the app's hook");
          },
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("counts requests per route template, with their latency", async () => {
    const before = await scrape(server);
    const browser = server.browser();
    for (let i = 0; i < 3; i++) expect((await browser.get("/get-session")).status).toBe(200);
    const after = await scrape(server);
    const labels = { route: "/get-session", method: "GET", status: 200 };
    expect(
      value(after, "gatehouse_http_requests_total", labels) - value(before, "gatehouse_http_requests_total", labels),
    ).toBe(3);
    const count = "gatehouse_http_request_duration_seconds_count";
    const routeLabels = { route: "/get-session", method: "GET" };
    expect(value(after, count, routeLabels) - value(before, count, routeLabels)).toBe(3);
    // The standard process series come from the instance's own registry.
    expect(value(after, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("counts an error by its code and sign-in outcomes by method", async () => {
    const { email, password } = await signUp(server);
    const before = await scrape(server);
    const browser = server.browser();
    expect((await browser.post("/sign-in/email", { email, password: "wrong password" })).status).toBe(401);
    expect((await browser.post("/sign-in/email", { email, password })).status).toBe(200);
    const after = await scrape(server);
    const delta = (name: string, labels: Record<string, string | number>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(delta("gatehouse_http_errors_total", { route: "/sign-in/email", code: "INVALID_EMAIL_OR_PASSWORD" })).toBe(
      1,
    );
    expect(delta("gatehouse_sign_ins_total", { method: "email", outcome: "failure" })).toBe(1);
    expect(delta("gatehouse_sign_ins_total", { method: "email", outcome: "success" })).toBe(1);
    expect(delta("gatehouse_http_requests_total", { route: "/sign-in/email", method: "POST", status: 401 })).toBe(1);
  });

  it("shows mail waiting in the outbox, and how long the oldest has waited", async () => {
    const before = await scrape(server);
    await signUp(server); // its verification mail cannot be delivered
    await signUp(server);
    await server.settled();
    server.clock.advance(90);
    const after = await scrape(server);
    const mail = { outbox: "mail" };
    expect(value(after, "gatehouse_outbox_pending", mail) - value(before, "gatehouse_outbox_pending", mail)).toBe(2);
    expect(value(after, "gatehouse_outbox_oldest_pending_age_seconds", mail)).toBeGreaterThanOrEqual(90);
    expect(value(after, "gatehouse_outbox_pending", { outbox: "webhook" })).toBe(0);
  });

  it("reports the database pool on PostgreSQL and the hot reads' statements", async () => {
    const { browser } = await signUp(server);
    const before = await scrape(server);
    await Promise.all(Array.from({ length: 8 }, () => browser.get("/get-session")));
    const series = await scrape(server);
    if (server.auth.database.dialect === "postgres") {
      expect(value(series, "gatehouse_db_pool_connections", { state: "max" })).toBe(10);
      expect(value(series, "gatehouse_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
      expect(series.has("gatehouse_db_pool_waiting")).toBe(true);
      const statements = "gatehouse_db_hot_read_statements_total";
      expect(value(series, statements) - value(before, statements)).toBeGreaterThan(0);
    } else {
      expect(series.has('gatehouse_db_pool_connections{state="max"}')).toBe(false);
      expect(value(series, "gatehouse_db_hot_read_statements_total")).toBe(0);
      expect(value(before, "gatehouse_db_hot_read_statements_total")).toBe(0);
    }
    expect(series.has("gatehouse_db_coalesced_statements_total")).toBe(true);
  });

  it("adds no series for unknown paths, however many", async () => {
    const browser = server.browser();
    await browser.get("/no-such-path");
    const before = await scrape(server);
    const random = Array.from({ length: 40 }, () => `/x-${Math.random().toString(36).slice(2)}`);
    for (const path of random) expect((await browser.get(path)).status).toBe(404);
    for (const path of random.slice(0, 5)) expect((await browser.request(path, { method: "PURGE" })).status).toBe(404);
    const after = await scrape(server);
    expect([...after.keys()].filter((key) => key.startsWith("gatehouse_http"))).toEqual(
      [...before.keys()].filter((key) => key.startsWith("gatehouse_http")),
    );
    const unknown = { route: "(unknown)", method: "*", status: 404 };
    expect(
      value(after, "gatehouse_http_requests_total", unknown) - value(before, "gatehouse_http_requests_total", unknown),
    ).toBe(45);
  });

  it("gives every answer a request id, keeping a well-formed incoming one", async () => {
    const browser = server.browser();
    const drawn = await browser.get("/get-session");
    expect(drawn.headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}$/);
    const other = await browser.get("/get-session");
    expect(other.headers.get("x-request-id")).not.toBe(drawn.headers.get("x-request-id"));
    const kept = await browser.get("/get-session", { headers: { "X-Request-Id": "edge-7f3a.91:b_2" } });
    expect(kept.headers.get("x-request-id")).toBe("edge-7f3a.91:b_2");
    for (const bad of ["a".repeat(129), "has space", "new\\nline", "<script>"]) {
      const replaced = await browser.get("/get-session", { headers: { "X-Request-Id": bad } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}$/);
    }
    // Refusals and unknown paths carry one too.
    expect((await browser.get("/list-sessions")).headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}$/);
    expect((await browser.get("/nothing-here")).headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}$/);
  });

  it("names the request id in the 500's log line and answer, and counts the error", async () => {
    const { browser } = await signUp(server);
    const before = await scrape(server);
    const response = await browser.get("/list-accounts", { headers: { "X-Request-Id": "trace-500-check" } });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("trace-500-check");
    expect(response.body.message).toContain("trace-500-check");
    expect(server.loggedErrors.pop()).toContain('"requestId":"trace-500-check"');
    const after = await scrape(server);
    const labels = { route: "/list-accounts", code: "INTERNAL_SERVER_ERROR" };
    expect(
      value(after, "gatehouse_http_errors_total", labels) - value(before, "gatehouse_http_errors_total", labels),
    ).toBe(1);
  });
});

describe("operations: the metrics path's switch and token", () => {
  let off: TestServer;
  let guarded: TestServer;
  const token = "scrape-token-0123456789abcdef";

  beforeAll(async () => {
    off = await startTestServer();
    // A second instance with metrics in the same process: its own registry, no clash.
    guarded = await startTestServer({ options: { metrics: { enabled: true, path: "/internal/metrics", token } } });
  });
  afterAll(async () => {
    await off.close();
    await guarded.close();
  });

  it("is not served when metrics are off (the default)", async () => {
    expect((await fetch(`${off.origin}/metrics`)).status).toBe(404);
    expect(off.auth.metrics).toBeNull();
  });

  it("answers 401 without the bearer token, and the metrics with it", async () => {
    const url = `${guarded.origin}/internal/metrics`;
    const bare = await fetch(url);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toContain("Bearer");
    expect(await bare.json()).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await fetch(url, { headers: { Authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: token } })).status).toBe(401);
    const scraped = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("gatehouse_http_requests_total");
    // Only the configured path: the default one is not served.
    expect((await fetch(`${guarded.origin}/metrics`)).status).toBe(404);
  });

  it("is served by the service's own app (npm start), beside the API", async () => {
    const service = createServiceApp(guarded.auth, "./no-application-here");
    const url = `${guarded.origin}/internal/metrics`;
    expect((await service.fetch(new Request(url))).status).toBe(401);
    const scraped = await service.fetch(new Request(url, { headers: { Authorization: `Bearer ${token}` } }));
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("gatehouse_outbox_pending");
    expect(
      (await createServiceApp(off.auth, "./no-application-here").fetch(new Request(`${off.origin}/metrics`))).status,
    ).toBe(404);
  });

  it("refuses a malformed metrics option at start-up", async () => {
    await expect(startTestServer({ options: { metrics: { enabled: true, path: "metrics" } } })).rejects.toThrow(
      /metrics\.path/,
    );
    await expect(startTestServer({ options: { metrics: { enabled: true, token: "short" } } })).rejects.toThrow(
      /metrics\.token/,
    );
  });
});
