import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../src/cli/run.js";
import { createAuthClient, type InferAdditionalFields } from "../src/client/index.js";
import { createAuth } from "../src/server/auth.js";
import { ConfigError } from "../src/server/options.js";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { freshDatabaseUrl } from "./helpers/database.js";
import { uniqueSlug } from "./helpers/organization.js";
import { startTestServer, TEST_SECRET, type TestServer, testHasher } from "./helpers/server.js";

// Issue 30, item 4: the app's own fields on user, session and organization (better-auth's additionalFields).
const FIELDS = {
  user: {
    additionalFields: {
      company: { type: "string", required: true },
      newsletter: { type: "boolean", defaultValue: false },
      plan: { type: "string", defaultValue: "free", input: false },
      seats: { type: "number" },
      birthday: { type: "date" },
      riskScore: { type: "number", input: false, returned: false },
    },
  },
  session: { additionalFields: { device: { type: "string", defaultValue: "web" } } },
  organization: {
    additionalFields: { tier: { type: "string", defaultValue: "basic" }, employees: { type: "number" } },
  },
} as const;

const newEmail = () => `user-${Math.random().toString(36).slice(2, 10)}@example.com`;

describe("additional fields", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ options: FIELDS, shareable: true });
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  const signUpWith = (body: Record<string, unknown>) => {
    const browser = server.browser();
    const sent = { name: "Field User", email: newEmail(), password: "correct horse battery", ...body };
    return browser.post("/sign-up/email", sent).then((res) => ({ res, browser }));
  };

  it("sign-up stores a required field, applies defaults, and get-session returns them in one round trip", async () => {
    const { res, browser } = await signUpWith({ company: "Acme", seats: 3, birthday: "1990-05-01T00:00:00.000Z" });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ company: "Acme", newsletter: false, plan: "free", seats: 3 });
    expect(res.body.user.birthday).toBe("1990-05-01T00:00:00.000Z");
    const before = server.queryCount();
    const session = await browser.get("/get-session");
    expect(server.queryCount() - before).toBe(1);
    expect(session.body.user).toMatchObject({
      company: "Acme",
      newsletter: false,
      plan: "free",
      seats: 3,
      birthday: "1990-05-01T00:00:00.000Z",
    });
    expect(session.body.session.device).toBe("web");
    expect(session.body.user).not.toHaveProperty("riskScore");
    const sessions = await browser.get("/list-sessions");
    expect(sessions.body[0].device).toBe("web");
  });

  it("refuses a sign-up without a required field, or with a wrong type, with a 400", async () => {
    const missing = await signUpWith({});
    expect(missing.res.status).toBe(400);
    expect(missing.res.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("company") });
    const wrong = await signUpWith({ company: "Acme", seats: "many" });
    expect(wrong.res.status).toBe(400);
    expect(wrong.res.body.code).toBe("VALIDATION_ERROR");
  });

  it("refuses an input:false field from a client, and lets the server set it", async () => {
    const refused = await signUpWith({ company: "Acme", plan: "pro" });
    expect(refused.res.status).toBe(400);
    expect(refused.res.body.code).toBe("FIELD_NOT_ALLOWED");
    // The app's own fields ride in the body beside the route's (a variable: not a literal's excess check).
    const body = {
      name: "Server Made",
      email: newEmail(),
      password: "correct horse battery",
      company: "Acme",
      plan: "pro",
      riskScore: 0.5,
    };
    const { user } = await server.auth.api.signUpEmail({ body });
    expect(user).toMatchObject({ company: "Acme", plan: "pro" });
    // returned: false is stored, never answered.
    expect(user).not.toHaveProperty("riskScore");
    const row = await server.auth.database.db
      .selectFrom("user")
      .selectAll()
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ riskScore: 0.5 });
  });

  it("update-user changes a field and refuses an input:false one", async () => {
    const { browser } = await signUpWith({ company: "Acme" });
    expect((await browser.post("/update-user", { newsletter: true, seats: 7 })).status).toBe(200);
    expect((await browser.get("/get-session")).body.user).toMatchObject({
      newsletter: true,
      seats: 7,
      company: "Acme",
    });
    const refused = await browser.post("/update-user", { plan: "pro" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("FIELD_NOT_ALLOWED");
  });

  it("update-session sets a session field; sign-in answers the user's fields", async () => {
    const email = newEmail();
    const { browser } = await signUpWith({ email, company: "Acme" });
    const updated = await browser.post("/update-session", { device: "tablet" });
    expect(updated.status).toBe(200);
    expect(updated.body.session.device).toBe("tablet");
    expect((await browser.get("/get-session")).body.session.device).toBe("tablet");
    expect((await browser.post("/update-session", { unknown: 1 })).body.code).toBe("NO_FIELDS_TO_UPDATE");
    const signIn = await server.browser().post("/sign-in/email", { email, password: "correct horse battery" });
    expect(signIn.body.user).toMatchObject({ company: "Acme", plan: "free" });
  });

  it("organization create, update, list and full organization carry its fields", async () => {
    const { browser } = await signUpWith({ company: "Acme" });
    const created = await browser.post("/organization/create", { name: "Fielded", slug: uniqueSlug(), employees: 12 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ tier: "basic", employees: 12 });
    const updated = await browser.post("/organization/update", {
      organizationId: created.body.id,
      data: { tier: "gold" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ tier: "gold", employees: 12 });
    const list = await browser.get("/organization/list");
    expect(list.body).toEqual([expect.objectContaining({ id: created.body.id, tier: "gold", employees: 12 })]);
    const full = await browser.get(`/organization/get-full-organization?organizationId=${created.body.id}`);
    expect(full.body).toMatchObject({ tier: "gold", employees: 12 });
    const bad = await browser.post("/organization/create", { name: "Bad", slug: uniqueSlug(), employees: "x" });
    expect(bad.status).toBe(400);
  });

  it("the client, typed from the options, sends and reads the fields", async () => {
    const client = createAuthClient<InferAdditionalFields<typeof FIELDS>>({
      baseURL: server.origin,
      fetch: cookieFetch(),
      headers: { origin: server.origin },
      focusTarget: null,
    });
    const signedUp = await client.signUp.email({
      name: "Typed",
      email: newEmail(),
      password: "correct horse battery",
      company: "Acme",
      birthday: new Date("2000-01-02T00:00:00.000Z"),
    });
    expect(signedUp.error).toBeNull();
    const company: string | null | undefined = signedUp.data?.user.company;
    expect(company).toBe("Acme");
    const { data } = await client.getSession();
    const birthday: Date | null | undefined = data?.user.birthday;
    expect(birthday).toEqual(new Date("2000-01-02T00:00:00.000Z"));
    const device: string | null | undefined = data?.session.device;
    expect(device).toBe("web");
    const created = await client.organization.create({ name: "Typed Org", slug: uniqueSlug(), employees: 5 });
    const employees: number | null | undefined = created.data?.employees;
    expect(employees).toBe(5);
    client.dispose();
  });

  it("the OpenAPI document has the fields in the replies and the bodies that take them", async () => {
    const { paths } = (await server.browser().get("/openapi.json")).body;
    const json = (path: string, method: string) => paths[path][method];
    const reply = (path: string, method: string) =>
      json(path, method).responses["200"].content["application/json"].schema;
    const body = (path: string) => json(path, "post").requestBody.content["application/json"].schema;
    const session = reply("/get-session", "get");
    const withUser = session.anyOf?.find((s: any) => s.properties) ?? session;
    expect(withUser.properties.user.properties.company).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(withUser.properties.user.properties.birthday.anyOf[0]).toEqual({ type: "string", format: "date-time" });
    expect(withUser.properties.session.properties.device).toBeDefined();
    expect(reply("/organization/list", "get").items.properties.employees).toBeDefined();
    const signUpBody = body("/sign-up/email");
    expect(signUpBody.properties.company).toBeDefined();
    expect(signUpBody.properties.plan).toBeUndefined();
    expect(signUpBody.required).toContain("company");
    expect(body("/organization/update").properties.data.properties.tier).toBeDefined();
  });

  it("a restart with an added field adds its column and keeps the rows", async () => {
    const user = (await signUpWith({ company: "Before" })).res.body.user;
    const options = {
      ...FIELDS,
      user: { additionalFields: { ...FIELDS.user.additionalFields, nickname: { type: "string" } } },
    };
    const second = await startTestServer({ options, shareDatabaseWith: server });
    try {
      const browser = second.browser();
      const res = await browser.post("/sign-up/email", {
        name: "After",
        email: newEmail(),
        password: "correct horse battery",
        company: "Acme",
        nickname: "Ace",
      });
      expect(res.status).toBe(200);
      expect((await browser.get("/get-session")).body.user.nickname).toBe("Ace");
      const earlier = await second.auth.database.db
        .selectFrom("user")
        .selectAll()
        .where("id", "=", user.id)
        .executeTakeFirst();
      expect(earlier).toMatchObject({ nickname: null });
    } finally {
      await second.close();
    }
  });
});

describe("additional fields options", () => {
  const start = async (options: Record<string, unknown>, database: string) =>
    createAuth({ baseURL: "http://localhost:3000", secret: TEST_SECRET, database, options, hasher: testHasher });

  it("refuses a reserved name, a bad name and a bad type as a ConfigError naming the option", async () => {
    const { url, drop } = await freshDatabaseUrl();
    try {
      for (const fields of [
        { email: { type: "string" } },
        { "bad name": { type: "string" } },
        { "x;drop table user": { type: "string" } },
        { shoe: { type: "shoe" } },
        { shoe: { type: "number", defaultValue: "ten" } },
      ]) {
        const failure = await start({ user: { additionalFields: fields } }, url).then(
          (auth) => auth.close().then(() => null),
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(ConfigError);
        expect((failure as Error).message).toContain("user.additionalFields");
      }
    } finally {
      await drop();
    }
  });

  it("refuses a field whose type does not fit the column already there", async () => {
    const { url, drop } = await freshDatabaseUrl({ shared: true });
    try {
      const first = await start({ organization: { additionalFields: { size: { type: "number" } } } }, url);
      await first.close();
      const second = start({ organization: { additionalFields: { size: { type: "boolean" } } } }, url);
      await expect(second).rejects.toThrow(ConfigError);
      await expect(second).rejects.toThrow(/organization\.additionalFields\.size/);
    } finally {
      await drop();
    }
  });

  it("gatehouse migrate adds the columns of the fields AUTH_CONFIG names, once", async () => {
    const { url, drop } = await freshDatabaseUrl({ shared: true });
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-fields-"));
    const config = join(dir, "auth.json");
    writeFileSync(config, JSON.stringify({ user: { additionalFields: { company: { type: "string" } } } }));
    const run = async () => {
      const out: string[] = [];
      const code = await runCommand(["migrate"], {
        env: { DATABASE_URL: url, AUTH_CONFIG: config },
        stdin: Object.assign(Readable.from([]), { isTTY: false }),
        out: (line) => out.push(line),
        err: (line) => out.push(line),
      });
      return { code, out: out.join("\n") };
    };
    try {
      const first = await run();
      expect(first).toEqual({ code: 0, out: expect.stringContaining("added 1 additional field column(s)") });
      const second = await run();
      expect(second).toEqual({ code: 0, out: expect.stringContaining("already up to date") });
      expect(second.out).not.toContain("column");
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await drop();
    }
  });
});
