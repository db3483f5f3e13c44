import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fromNodeHeaders, toNodeHandler } from "../src/server/adapters/node.js";
import { type Auth, createAuth, toNextJsHandler } from "../src/server/index.js";
import type { Logger } from "../src/server/logger.js";
import { freshDatabaseUrl } from "./helpers/database.js";
import { TEST_SECRET, testHasher } from "./helpers/server.js";

/**
 * The package's framework recipes (docs/frameworks.md) on real servers: Express 5 and Fastify through
 * toNodeHandler, and the Next.js route handlers with Request objects. One service behind all of them.
 */

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  setCookies: string[];
  body: any;
}

/** One HTTP exchange over node:http, so the test can pick the client's source address. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const json = String(res.headers["content-type"] ?? "").includes("application/json");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            setCookies: res.headers["set-cookie"] ?? [],
            body: text === "" ? null : json ? JSON.parse(text) : text,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const cookieHeader = (setCookies: string[]) => setCookies.map((line) => line.split(";")[0]).join("; ");

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

let auth: Auth;
let drop: () => Promise<void>;
const loggedErrors: string[] = [];
let resolveAuth: (auth: Auth) => void;
// The servers listen before the service exists (its trusted origins need their ports).
const authReady = new Promise<Auth>((resolve) => {
  resolveAuth = resolve;
});

let expressOrigin: string;
let expressJsonOrigin: string;
let expressMountedOrigin: string;
let fastifyOrigin: string;
const servers: Server[] = [];
let fastify: FastifyInstance;

beforeAll(async () => {
  const plain = express();
  plain.all("/api/auth/*splat", toNodeHandler(authReady));
  // The middleware recipe: a route of the host app that needs a signed-in user.
  plain.get("/me", async (req, res) => {
    const data = await (await authReady).api.getSession({ headers: fromNodeHeaders(req.headers) });
    if (!data) {
      res.status(401).json({ code: "UNAUTHORIZED", message: "Sign in first" });
      return;
    }
    res.json({ email: data.user.email });
  });

  // A host app that parses every body before the auth handler sees it.
  const parsing = express();
  parsing.use(express.json());
  parsing.use(express.urlencoded({ extended: false }));
  parsing.all("/api/auth/*splat", toNodeHandler(authReady));

  // Mounted with app.use: Express strips the mount path from req.url, the handler reads req.originalUrl.
  const mounted = express();
  mounted.use("/api/auth", toNodeHandler(authReady));

  for (const app of [plain, parsing, mounted]) servers.push(createServer(app));
  expressOrigin = await listen(servers[0]!);
  expressJsonOrigin = await listen(servers[1]!);
  expressMountedOrigin = await listen(servers[2]!);

  fastify = Fastify();
  await fastify.register(async (scope) => {
    // Leave the body unread for the auth handler: no content-type parser in this scope reads it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    const handler = toNodeHandler(authReady);
    scope.all("/api/auth/*", async (request, reply) => {
      reply.hijack();
      await handler(request.raw, reply.raw);
    });
  });
  fastifyOrigin = await fastify.listen({ port: 0, host: "127.0.0.1" });

  const database = await freshDatabaseUrl();
  drop = database.drop;
  const logger: Logger = {
    info: () => {},
    warn: () => {},
    error: (message, fields) => loggedErrors.push(`${message} ${JSON.stringify(fields)}`),
  };
  auth = await createAuth({
    baseURL: expressOrigin,
    secret: TEST_SECRET,
    database: database.url,
    hasher: testHasher,
    logger,
    options: {
      trustedOrigins: [expressJsonOrigin, expressMountedOrigin, fastifyOrigin],
      session: { cookieCache: { enabled: true, maxAge: 300 } },
      rateLimit: { enabled: true, customRules: { "/sign-in/email": { window: 60, max: 3 } } },
    },
  });
  resolveAuth(auth);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await fastify?.close();
  await auth?.close();
  await drop?.();
});

afterEach(() => expect(loggedErrors).toEqual([]));

let counter = 0;
const newEmail = () => {
  counter += 1;
  return `frameworks-${Date.now()}-${counter}@example.com`;
};
const PASSWORD = "correct horse battery";

/** Sign-up, sign-in and get-session through one server, every step over real HTTP. */
async function journey(origin: string, encode: "json" | "form" = "json") {
  const email = newEmail();
  // Each journey from its own loopback address: sign-up and sign-in are rate limited per IP.
  const localAddress = `127.0.1.${counter}`;
  const post = (path: string, fields: Record<string, string>) =>
    send(`${origin}/api/auth${path}`, {
      method: "POST",
      headers: {
        origin,
        "content-type": encode === "json" ? "application/json" : "application/x-www-form-urlencoded",
      },
      body: encode === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      localAddress,
    });
  const signUp = await send(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ name: "Framework User", email, password: PASSWORD }),
    localAddress,
  });
  expect(signUp.status).toBe(200);
  expect(signUp.body.user.email).toBe(email);
  const signIn = await post("/sign-in/email", { email, password: PASSWORD });
  expect(signIn.status).toBe(200);
  // Both cookies arrive as separate Set-Cookie headers (session token and cookie cache).
  const names = signIn.setCookies.map((line) => line.split("=")[0]);
  expect(names).toEqual(expect.arrayContaining(["gatehouse.session_token", "gatehouse.session_data"]));
  const session = await send(`${origin}/api/auth/get-session?disableCookieCache=true`, {
    headers: { cookie: cookieHeader(signIn.setCookies) },
  });
  expect(session.status).toBe(200);
  expect(session.body.user.email).toBe(email);
  expect(session.body.session.ipAddress).toBe(localAddress);
  return { email, cookie: cookieHeader(signIn.setCookies), session: session.body };
}

describe("Express 5 with toNodeHandler", () => {
  it("signs up, signs in and reads the session, with every cookie and the client's IP", async () => {
    await journey(expressOrigin);
  });

  it("keeps the caller's IP for the rate limiter: one address is limited, another is not", async () => {
    const { email } = await journey(expressOrigin);
    const attempt = (localAddress: string) =>
      send(`${expressOrigin}/api/auth/sign-in/email`, {
        method: "POST",
        localAddress,
        headers: { origin: expressOrigin, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "wrong password here" }),
      });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await attempt("127.0.0.3")).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await attempt("127.0.0.4")).status).toBe(401);
  });

  it("hands on a body express.json() or express.urlencoded() already read", async () => {
    await journey(expressJsonOrigin, "json");
    await journey(expressJsonOrigin, "form");
  });

  it("streams a chunked body and refuses one over the size limit with 413", async () => {
    const email = newEmail();
    const chunks = [`{"name":"Chunked","email":"${email}",`, `"password":"${PASSWORD}"}`];
    const chunked = await fetch(`${expressOrigin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: expressOrigin, "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(200);
    const big = await send(`${expressOrigin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: expressOrigin, "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
  });

  it("works mounted with app.use('/api/auth', ...) too", async () => {
    await journey(expressMountedOrigin);
  });

  it("protects a host route with auth.api.getSession", async () => {
    expect((await send(`${expressOrigin}/me`)).status).toBe(401);
    const { email, cookie } = await journey(expressOrigin);
    const me = await send(`${expressOrigin}/me`, { headers: { cookie } });
    expect(me).toMatchObject({ status: 200, body: { email } });
  });

  it("answers HEAD without a body", async () => {
    const head = await send(`${expressOrigin}/api/auth/ok`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });
});

describe("toNodeHandler on node:http", () => {
  it("answers 500 for a failing handler and 400 for a bad Host, and the server keeps serving", async () => {
    let calls = 0;
    const errors: string[] = [];
    const logger: Logger = {
      info: () => {},
      warn: () => {},
      error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`),
    };
    const server = createServer(
      toNodeHandler({
        handler: async () => {
          calls += 1;
          if (calls === 1) throw new Error("handler failed");
          return new Response("fine");
        },
        context: { logger },
      }),
    );
    const origin = await listen(server);
    try {
      const failed = await send(`${origin}/x`);
      expect(failed).toMatchObject({ status: 500, body: { code: "INTERNAL_SERVER_ERROR" } });
      expect(errors).toEqual([`node handler failed {"error":"handler failed"}`]);
      expect((await send(`${origin}/x`, { headers: { host: "bad host" } })).status).toBe(400);
      expect(await send(`${origin}/x`)).toMatchObject({ status: 200, body: "fine" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("Fastify with toNodeHandler", () => {
  it("signs up, signs in and reads the session, with every cookie and the client's IP", async () => {
    await journey(fastifyOrigin);
    await journey(fastifyOrigin, "form");
  });
});

describe("Next.js route handlers (toNextJsHandler)", () => {
  it("serves sign-up, sign-in and get-session from Request objects", async () => {
    const { GET, POST } = toNextJsHandler(authReady);
    const origin = expressOrigin; // the service's baseURL: the origin a same-site page sends
    const email = newEmail();
    const post = (path: string, body: unknown) =>
      POST(
        new Request(`${origin}/api/auth${path}`, {
          method: "POST",
          headers: { origin, "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
          body: JSON.stringify(body),
        }),
      );
    expect((await post("/sign-up/email", { name: "Next User", email, password: PASSWORD })).status).toBe(200);
    const signIn = await post("/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const cookie = cookieHeader(signIn.headers.getSetCookie());
    expect(cookie).toContain("gatehouse.session_data=");
    const session = await GET(new Request(`${origin}/api/auth/get-session`, { headers: { cookie } }));
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
    // A Server Component or middleware reads the same session in-process.
    const data = await (await authReady).api.getSession({ headers: new Headers({ cookie }) });
    expect(data?.user.email).toBe(email);
  });
});
