import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// Property-based fuzzing of every route: malformed JSON, wrong types, huge and deep values, NUL and
// control characters, prototype keys, duplicate query parameters. Whatever arrives, the answer is
// never a 5xx, a refusal is `{code, message}`, and a refused request changes nothing. Bounded in
// count (FUZZ_RUNS per route, default 6) so it stays a few seconds per database.

const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

let server: TestServer;
let organizationId: string;
beforeAll(async () => {
  server = await startTestServer({
    options: {
      organization: { teams: { enabled: true } },
      user: { changeEmail: { enabled: true }, deleteUser: { enabled: true } },
    },
  });
  const owner = await signUp(server);
  organizationId = (await owner.browser.post("/organization/create", { name: "Fuzz", slug: "fuzz" })).body.id;
});
afterAll(() => server.close());

/** Field names the routes read, so fuzzed bodies reach past "unknown key" into real validation. */
const FIELDS = [
  "email",
  "password",
  "newPassword",
  "currentPassword",
  "name",
  "image",
  "token",
  "callbackURL",
  "organizationId",
  "organizationSlug",
  "userId",
  "teamId",
  "memberIdOrEmail",
  "invitationId",
  "role",
  "slug",
  "logo",
  "metadata",
  "data",
  "limit",
  "offset",
  "banExpiresIn",
  "banReason",
  "provider",
  "providerId",
  "accountId",
  "idToken",
  "sessionToken",
  "permissions",
  "revokeOtherSessions",
  "rememberMe",
  "__proto__",
  "constructor",
];

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\t\n\r",
    "/\t/evil.example",
    "javascript:alert(1)",
    "../../etc/passwd",
    "' OR 1=1 --",
    "%00",
    "💥".repeat(50),
    "x".repeat(5000),
  ),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(2 ** 64, -(2 ** 63), 8.64e12, Number.MAX_SAFE_INTEGER, 1e308, -0, 0.5),
);
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("node"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), tie("node"), { maxKeys: 4 }),
})).node;
const deepValue = fc.integer({ min: 10, max: 400 }).map((depth) => {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = { metadata: v };
  return v;
});
/** Plausible values for every field, so a body with one hostile field gets past the schema into the service. */
function plausible(account: { email: string; user: { id: string } }): Record<string, unknown> {
  return {
    email: `fuzz-${Math.random().toString(36).slice(2, 10)}@example.com`,
    password: "sturdy-pass-123",
    newPassword: "another-sturdy-pw",
    currentPassword: "sturdy-pass-123",
    name: "Fuzz",
    slug: `fuzz-${Math.random().toString(36).slice(2, 10)}`,
    organizationId,
    userId: account.user.id,
    memberIdOrEmail: account.email,
    role: "member",
    token: "token",
    callbackURL: "/",
  };
}
const hostileFields = fc.dictionary(
  fc.constantFrom(...FIELDS),
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("\u0000", "a\u0000b", `fuzz\u0000@example.com`) },
    { weight: 3, arbitrary: value },
    { weight: 1, arbitrary: deepValue },
    { weight: 1, arbitrary: fc.array(leaf, { minLength: 1000, maxLength: 1200 }) },
  ),
  { minKeys: 1, maxKeys: 3 },
);
/** A plausible body with hostile fields over it, a purely random one, or text that is not JSON at all. */
const body = fc.oneof(
  { weight: 4, arbitrary: hostileFields.map((fields) => ({ plausibleBase: true, fields })) },
  {
    weight: 2,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 })
      .map((fields) => ({ plausibleBase: false, fields })),
  },
  { weight: 1, arbitrary: fc.constantFrom("{", "[]", "null", '"text"', '{"email":', "\u0000", '{"a":1}}') },
);
const query = fc.array(fc.tuple(fc.constantFrom(...FIELDS, "disableCookieCache", "id"), hostileString), {
  maxLength: 5,
});

function routes(): { method: "GET" | "POST"; path: string }[] {
  const seen = new Set<string>();
  const list: { method: "GET" | "POST"; path: string }[] = [];
  for (const route of server.auth.app.routes) {
    if (route.method !== "GET" && route.method !== "POST") continue;
    const path = route.path.slice(server.auth.context.basePath.length);
    const key = `${route.method} ${path}`;
    if (seen.has(key) || path.includes("*")) continue;
    seen.add(key);
    list.push({ method: route.method, path });
  }
  return list;
}

async function snapshot() {
  const { db } = server.auth.database;
  const tables = [
    "user",
    "session",
    "account",
    "organization",
    "member",
    "invitation",
    "team",
    "verification",
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }
  return counts;
}

describe("fuzzing every route", () => {
  it("finds the routes", () => {
    expect(routes().length).toBeGreaterThan(60);
  });

  it(`never answers 5xx, refuses with {code, message}, and a refusal changes nothing (seed ${SEED})`, async () => {
    const failures: string[] = [];
    for (const route of routes()) {
      const account = await signUp(server);
      await fc.assert(
        fc.asyncProperty(body, query, async (payload, params) => {
          const path = route.path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(String(params[0]?.[1] ?? "x")));
          const search = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
          const url = `${path}${search ? `?${search}` : ""}${route.method === "GET" ? `${search ? "&" : "?"}organizationId=${organizationId}` : ""}`;
          const before = await snapshot();
          const res = await account.browser.request(url, {
            method: route.method,
            ...(route.method === "POST"
              ? typeof payload === "string"
                ? { body: payload, headers: { "content-type": "application/json" } }
                : { body: { ...(payload.plausibleBase ? plausible(account) : {}), ...payload.fields } }
              : {}),
          });
          if (res.status >= 500) failures.push(`${route.method} ${url} -> ${res.status} ${JSON.stringify(res.body)}`);
          if (res.status >= 400 && res.status !== 404 && res.body !== null && typeof res.body === "object") {
            if (typeof res.body.code !== "string" || typeof res.body.message !== "string") {
              failures.push(`${route.method} ${url} -> ${res.status} without {code, message}`);
            }
          }
          if (res.status >= 400) {
            const after = await snapshot();
            if (JSON.stringify(after) !== JSON.stringify(before)) {
              failures.push(
                `${route.method} ${url} -> ${res.status} changed ${JSON.stringify(before)} to ${JSON.stringify(after)}`,
              );
            }
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    expect(failures).toEqual([]);
    expect(server.loggedErrors).toEqual([]);
  }, 240_000);
});
