import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../src/contract/endpoints/index.js";
import { EVERY_FEATURE_ON, startTestServer, type TestServer } from "./helpers/server.js";

type Operation = {
  operationId: string;
  summary: string;
  responses: Record<string, any>;
  requestBody?: any;
  parameters: any[];
};

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** `/callback/{id}` -> `/callback/:id`, the table's spelling. */
const tablePath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

function operations(document: any): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [path, item] of Object.entries<Record<string, Operation>>(document.paths)) {
    for (const [method, operation] of Object.entries(item)) found.set(key(method, tablePath(path)), operation);
  }
  return found;
}

describe("GET /openapi.json", () => {
  let everything: TestServer;
  let fewer: TestServer;
  let document: any;
  beforeAll(async () => {
    [everything, fewer] = await Promise.all([
      startTestServer({ options: EVERY_FEATURE_ON, extra: { mail: { devOutbox: true } } }),
      startTestServer({
        options: { admin: { enabled: false }, jwt: { enabled: false }, organization: { enabled: false } },
      }),
    ]);
    document = (await everything.browser().get("/openapi.json")).body;
  });
  afterAll(async () => {
    await Promise.all([everything?.close(), fewer?.close()]);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists exactly the served endpoints, with the features that are off left out", async () => {
    expect([...operations(document).keys()].sort()).toEqual(allEndpoints.map((e) => key(e.method, e.path)).sort());
    const smaller = operations((await fewer.browser().get("/openapi.json")).body);
    const listed = [...smaller.keys()];
    expect(listed.some((entry) => entry.includes("/admin/"))).toBe(false);
    expect(listed.some((entry) => entry.includes("/organization/"))).toBe(false);
    expect(listed).not.toContain("GET /token");
    expect(listed).toContain("POST /sign-in/email");
    expect(document.servers).toEqual([{ url: `${everything.origin}/api/auth` }]);
  });

  it("names and summarises every operation, with unique operation ids", () => {
    const ids = [...operations(document).values()].map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, operation] of operations(document)) {
      expect(operation.summary, name).toMatch(/\w/);
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => ["200", "201", "204", "302"].includes(status)),
        name,
      ).toBe(true);
    }
    expect(ids).toContain("adminUpdateUser");
    expect(ids).toContain("accountUpdateUser");
  });

  it("describes bodies, queries, replies and the error codes each endpoint can answer", () => {
    const signIn = operations(document).get("POST /sign-in/email")!;
    const body = signIn.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(expect.arrayContaining(["email", "password"]));
    // The sign-in form also takes an HTML form post.
    expect(Object.keys(signIn.requestBody.content)).toContain("application/x-www-form-urlencoded");
    // Signed in, or a second factor owed.
    const [signedIn, twoFactor] = signIn.responses["200"].content["application/json"].schema.anyOf;
    expect(signedIn.properties.user.properties.createdAt).toEqual({ type: "string", format: "date-time" });
    expect(twoFactor.required).toEqual(["twoFactorRedirect", "twoFactorMethods"]);
    const codesOf = (status: string) =>
      signIn.responses[status].content["application/json"].schema.allOf[1].properties.code.enum;
    expect(codesOf("401")).toContain("INVALID_EMAIL_OR_PASSWORD");
    expect(codesOf("403")).toContain("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
    expect(codesOf("429")).toEqual(["TOO_MANY_REQUESTS"]);

    const listMembers = operations(document).get("GET /organization/list-members")!;
    expect(listMembers.parameters.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(["organizationId", "limit", "offset"]),
    );
    expect(listMembers.responses["401"].content["application/json"].schema.allOf[1].properties.code.enum).toContain(
      "UNAUTHORIZED",
    );

    const callback = operations(document).get("GET /callback/:id")!;
    expect(callback.parameters[0]).toMatchObject({ name: "id", in: "path", required: true });
    expect(callback.responses["302"]).toBeDefined();
  });
});

describe("GET /reference", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is a page that loads its viewer from this server only, under a strict CSP", async () => {
    const res = await fetch(`${server.origin}/api/auth/reference`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>/);
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    for (const [asset, type] of [
      ["viewer.js", "text/javascript"],
      ["viewer.css", "text/css"],
    ]) {
      expect(html).toContain(`reference/${asset}`);
      const file = await fetch(`${server.origin}/api/auth/reference/${asset}`);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get("content-type"), asset).toContain(type);
      expect((await file.text()).length, asset).toBeGreaterThan(10);
    }
    const missing = await fetch(`${server.origin}/api/auth/reference/..%2fpackage.json`);
    expect(missing.status).toBe(404);
    // The viewer is a string in our source: at least it must parse as a script.
    const viewer = await (await fetch(`${server.origin}/api/auth/reference/viewer.js`)).text();
    expect(() => new Function(viewer)).not.toThrow();
  });
});
