import { createHash, timingSafeEqual } from "node:crypto";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { UnsealedTail } from "../audit/trail.store.js";
import type { DatabaseStats } from "../store/database.js";
import type { OutboxBacklog } from "../store/outbox-backlog.js";
import type { CacheCounts, RequestMetrics, RouteMetrics } from "./request-metrics.js";
import { signInMethodOf, signInOutcome } from "./sign-in-outcomes.js";

/** What the metrics read at scrape time, never per request (docs/operations.md). */
export interface MetricSources {
  database(): DatabaseStats;
  mailBacklog(): Promise<OutboxBacklog>;
  webhookBacklog(): Promise<OutboxBacklog>;
  /** The audit trail's unsealed entries, with auditing on (docs/audit.md, "Sealing"). */
  auditUnsealed?: () => Promise<UnsealedTail>;
  caches: CacheCounts;
  now(): Date;
}

export interface MetricsSettings {
  /** Where the metrics answer, e.g. `/metrics`. */
  path: string;
  /** A bearer token a scrape must send; none: anyone who reaches the path may read them. */
  token?: string;
}

/** One instance's Prometheus metrics: its own registry, so several instances in a process never clash. */
export interface ServiceMetrics {
  readonly registry: Registry;
  readonly requests: RequestMetrics;
  /** Whether a request's URL is the metrics path (a string comparison, no URL parsing). */
  isMetricsRequest(request: Request): boolean;
  /** The exposition text, or 401 without the token. */
  answer(request: Request): Promise<Response>;
}

/**
 * Latency buckets in seconds: the hot reads answer in about a millisecond, a password sign-in in
 * tens of milliseconds (argon2id), so the low end is finer than prom-client's default.
 */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(settings: MetricsSettings, sources: MetricSources): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  // Heap, event-loop lag, GC, file descriptors: the standard process_* and nodejs_* series.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "gatehouse_http_requests_total",
    help: "Requests answered, by route template, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers,
  });
  const duration = new Histogram({
    name: "gatehouse_http_request_duration_seconds",
    help: "Time from a request's start to its answer, by route template and method",
    labelNames: ["route", "method"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const errors = new Counter({
    name: "gatehouse_http_errors_total",
    help: "Error answers by route template and error code",
    labelNames: ["route", "code"] as const,
    registers,
  });
  const signIns = new Counter({
    name: "gatehouse_sign_ins_total",
    help: "Sign-in attempts by method and outcome (success, failure, second_factor, error)",
    labelNames: ["method", "outcome"] as const,
    registers,
  });
  outboxGauges(registers, sources);
  auditGauges(registers, sources);
  databaseGauges(registers, sources);
  cacheCounters(registers, sources.caches);

  const routes: RequestMetrics = {
    route(method, path): RouteMetrics {
      const signInMethod = signInMethodOf(method, path);
      const histogram = duration.labels(path, method);
      return {
        observe(response, seconds, errorCode) {
          histogram.observe(seconds);
          requests.inc({ route: path, method, status: response.status });
          if (errorCode !== undefined) errors.inc({ route: path, code: errorCode });
          if (signInMethod !== undefined) {
            const outcome = signInOutcome(response);
            if (outcome !== null) signIns.inc({ method: signInMethod, outcome });
          }
        },
      };
    },
  };

  const tokenDigest = settings.token === undefined ? null : sha256(settings.token);
  return {
    registry,
    requests: routes,
    isMetricsRequest(request) {
      if (request.method !== "GET" && request.method !== "HEAD") return false;
      const url = request.url;
      const pathStart = url.indexOf("/", url.indexOf("://") + 3);
      if (!url.startsWith(settings.path, pathStart)) return false;
      const end = pathStart + settings.path.length;
      return end === url.length || url[end] === "?" || url[end] === "#";
    },
    async answer(request) {
      if (tokenDigest !== null && !bearerMatches(request.headers.get("authorization"), tokenDigest)) {
        return Response.json(
          { code: "UNAUTHORIZED", message: "The metrics need the bearer token" },
          { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" } },
        );
      }
      const text = await registry.metrics();
      return new Response(request.method === "HEAD" ? null : text, {
        headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
      });
    },
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compared as digests in constant time, so neither the token's length nor its bytes leak through timing. */
function bearerMatches(header: string | null, tokenDigest: Buffer): boolean {
  const match = header === null ? null : /^Bearer ([^\s]+)$/i.exec(header);
  return match !== null && timingSafeEqual(sha256(match[1] ?? ""), tokenDigest);
}

/** Outbox depth and the age of its oldest row: two aggregate queries on the pending indexes, per scrape. */
function outboxGauges(registers: Registry[], sources: MetricSources): void {
  // Both gauges are collected side by side in one scrape: they share one read of the two outboxes.
  let reading: Promise<[OutboxBacklog, OutboxBacklog]> | null = null;
  const backlogs = async () => {
    reading ??= Promise.all([sources.mailBacklog(), sources.webhookBacklog()]).finally(() => {
      reading = null;
    });
    const [mail, webhook] = await reading;
    return [
      ["mail", mail],
      ["webhook", webhook],
    ] as const;
  };
  new Gauge({
    name: "gatehouse_outbox_pending",
    help: "Rows waiting for delivery (retries included), by outbox (mail, webhook)",
    labelNames: ["outbox"] as const,
    registers,
    async collect() {
      for (const [outbox, backlog] of await backlogs()) this.set({ outbox }, backlog.pending);
    },
  });
  new Gauge({
    name: "gatehouse_outbox_oldest_pending_age_seconds",
    help: "How long the oldest undelivered row has waited; 0 when none waits",
    labelNames: ["outbox"] as const,
    registers,
    async collect() {
      const now = sources.now().getTime();
      for (const [outbox, backlog] of await backlogs()) {
        const oldest = backlog.oldestCreatedAt?.getTime();
        this.set({ outbox }, oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000));
      }
    },
  });
}

/**
 * The audit trail's unsealed tail: one aggregate over its partial index per scrape. The oldest's age
 * past audit.sealWithinSeconds is the alert (docs/operations.md): no instance is sealing.
 */
function auditGauges(registers: Registry[], sources: MetricSources): void {
  const read = sources.auditUnsealed;
  if (!read) return;
  let reading: Promise<UnsealedTail> | null = null;
  const tail = () => {
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  };
  new Gauge({
    name: "gatehouse_audit_unsealed_entries",
    help: "Audit entries committed but not sealed (numbered and hash-chained) yet",
    registers,
    async collect() {
      this.set((await tail()).count);
    },
  });
  new Gauge({
    name: "gatehouse_audit_unsealed_oldest_seconds",
    help: "How long the oldest unsealed audit entry has waited; 0 when none waits",
    registers,
    async collect() {
      const oldest = (await tail()).oldestCreatedAt?.getTime();
      this.set(oldest === undefined ? 0 : Math.max(0, (sources.now().getTime() - oldest) / 1000));
    },
  });
}

/** PostgreSQL's pool and the hot reads' coalescing (docs/read-path.md), read from the store's counts. */
function databaseGauges(registers: Registry[], sources: MetricSources): void {
  new Gauge({
    name: "gatehouse_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle) and the pool's size (max); absent on SQLite",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const pool = sources.database().pool;
      if (pool === null) return;
      this.set({ state: "total" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "max" }, pool.max);
    },
  });
  new Gauge({
    name: "gatehouse_db_pool_waiting",
    help: "Queries waiting for a PostgreSQL pool connection; absent on SQLite",
    registers,
    collect() {
      const pool = sources.database().pool;
      if (pool === null) this.reset();
      else this.set(pool.waiting);
    },
  });
  const counted = (name: string, help: string, read: (stats: DatabaseStats["hotReads"]) => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read(sources.database().hotReads));
      },
    });
  counted(
    "gatehouse_db_hot_read_statements_total",
    "Statements the hot reads sent to PostgreSQL (0 on SQLite, whose reads run in process)",
    (s) => s.statements,
  );
  counted(
    "gatehouse_db_coalesced_statements_total",
    "Hot-read statements that carried the reads of several requests (one UNION ALL round trip)",
    (s) => s.coalescedStatements,
  );
  counted("gatehouse_db_coalesced_reads_total", "Reads carried by coalesced statements", (s) => s.coalescedReads);
}

function cacheCounters(registers: Registry[], caches: CacheCounts): void {
  const names = Object.keys(caches) as (keyof CacheCounts)[];
  for (const [name, field] of [
    ["gatehouse_cache_hits_total", "hits"],
    ["gatehouse_cache_misses_total", "misses"],
  ] as const) {
    new Counter({
      name,
      help: `Cache ${field} by cache (cookieCache: get-session from the signed cookie; memberPages: list-members' kept first pages)`,
      labelNames: ["cache"] as const,
      registers,
      collect() {
        this.reset();
        for (const cache of names) this.inc({ cache }, caches[cache][field]);
      },
    });
  }
}
