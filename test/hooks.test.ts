import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../src/server/auth.js";
import { AuthError } from "../src/server/errors.js";
import type {
  AfterEndpointHookContext,
  DatabaseHooks,
  EndpointHookContext,
  EndpointHooks,
} from "../src/server/hooks.js";
import { ConfigError } from "../src/server/options.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/**
 * createAuth's `hooks` (around every endpoint) and `databaseHooks` (around row writes), issue 30
 * item 4. One server; each case puts its hook in the slots below and the slots are emptied after it.
 */

let server: TestServer;
const slots: {
  before?: EndpointHooks["before"];
  after?: EndpointHooks["after"];
  database: DatabaseHooks;
} = { database: {} };

const hooks: EndpointHooks = {
  before: (ctx) => slots.before?.(ctx),
  after: (ctx) => slots.after?.(ctx),
};
// The database hooks read the slots on each write, so a case can set one for itself.
const databaseHooks: DatabaseHooks = {
  user: {
    create: {
      before: (data) => slots.database.user?.create?.before?.(data),
      after: (row) => slots.database.user?.create?.after?.(row),
    },
  },
  organization: {
    create: { before: (data) => slots.database.organization?.create?.before?.(data) },
  },
  session: {
    delete: {
      before: (row) => slots.database.session?.delete?.before?.(row),
      after: (row) => slots.database.session?.delete?.after?.(row),
    },
  },
};

let counter = 0;
const uniqueEmail = (domain = "example.com") => `hooks-${Date.now().toString(36)}-${counter++}@${domain}`;
const PASSWORD = "correct horse battery";

async function userCount(email: string): Promise<number> {
  const rows = await server.auth.database.db.selectFrom("user").select("id").where("email", "=", email).execute();
  return rows.length;
}

beforeAll(async () => {
  server = await startTestServer({
    options: { organization: { enabled: true } },
    extra: { hooks, databaseHooks },
  });
});
afterAll(() => server.close());
afterEach(() => {
  slots.before = undefined;
  slots.after = undefined;
  slots.database = {};
  expect(server.loggedErrors).toEqual([]);
});

describe("endpoint hooks", () => {
  it("a before hook refuses sign-up for a domain with its AuthError's status and code; nothing is written", async () => {
    const seen: EndpointHookContext[] = [];
    slots.before = (ctx) => {
      seen.push(ctx);
      const email = String(ctx.body?.email ?? "");
      if (ctx.path === "/sign-up/email" && email.endsWith("@blocked.example")) {
        throw new AuthError("FORBIDDEN", { message: "Sign-ups from blocked.example are closed" });
      }
    };
    const email = uniqueEmail("blocked.example");
    const refused = await server.browser().post("/sign-up/email", { name: "Eve", email, password: PASSWORD });
    expect([refused.status, refused.body]).toEqual([
      403,
      { code: "FORBIDDEN", message: "Sign-ups from blocked.example are closed" },
    ]);
    expect(await userCount(email)).toBe(0);
    expect(seen[0]).toMatchObject({ path: "/sign-up/email", method: "POST", session: null });
    expect(seen[0]?.headers.get("content-type")).toContain("application/json");

    const allowed = await server
      .browser()
      .post("/sign-up/email", { name: "Ann", email: uniqueEmail(), password: PASSWORD });
    expect(allowed.status).toBe(200);
  });

  it("a before hook changes the input; the endpoint's schema still checks the change", async () => {
    slots.before = (ctx) =>
      ctx.path === "/sign-up/email" ? { body: { ...ctx.body, name: `${ctx.body?.name} (checked)` } } : undefined;
    const email = uniqueEmail();
    const changed = await server.browser().post("/sign-up/email", { name: "Bo", email, password: PASSWORD });
    expect([changed.status, changed.body.user.name]).toEqual([200, "Bo (checked)"]);

    // A change the schema refuses is a 400, as the same body from the wire would be.
    slots.before = (ctx) => (ctx.path === "/sign-up/email" ? { body: { ...ctx.body, email: 42 } } : undefined);
    const invalid = await server
      .browser()
      .post("/sign-up/email", { name: "Cy", email: uniqueEmail(), password: PASSWORD });
    expect([invalid.status, invalid.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("an after hook adds a field to get-session's reply, seeing the caller's session", async () => {
    const account = await signUp(server);
    const seen: AfterEndpointHookContext[] = [];
    slots.after = (ctx) => {
      seen.push(ctx);
      if (ctx.path !== "/get-session" || !ctx.reply.json) return;
      return { json: { ...(ctx.reply.json as object), plan: "pro" } };
    };
    const reply = await account.browser.get("/get-session");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ user: { id: account.user.id }, plan: "pro" });
    expect(seen[0]?.session?.user.id).toBe(account.user.id);
    expect(seen[0]?.reply.status).toBe(200);
  });
});

describe("database hooks", () => {
  it("user.create.before changes the new user's name", async () => {
    slots.database.user = { create: { before: (data) => ({ data: { name: data.name.toUpperCase() } }) } };
    const email = uniqueEmail();
    const reply = await server.browser().post("/sign-up/email", { name: "Dee", email, password: PASSWORD });
    expect(reply.body.user.name).toBe("DEE");
    const row = await server.auth.database.db
      .selectFrom("user")
      .select("name")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("DEE");
  });

  it("organization.create.before refusing writes nothing (no organization, no member)", async () => {
    const account = await signUp(server);
    slots.database.organization = { create: { before: () => false } };
    const slug = `refused-${counter++}`;
    const refused = await account.browser.post("/organization/create", { name: "Refused", slug });
    expect([refused.status, refused.body.code]).toEqual([403, "FORBIDDEN"]);
    const { db } = server.auth.database;
    expect(await db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    expect(await db.selectFrom("member").select("id").where("userId", "=", account.user.id).execute()).toEqual([]);
  });

  it("an after hook that throws rolls the change back: no user, no account", async () => {
    slots.database.user = {
      create: {
        after: (row) => {
          if (row.email.startsWith("hooks-")) throw new AuthError("FORBIDDEN", { message: "Not today" });
        },
      },
    };
    const email = uniqueEmail();
    const refused = await server.browser().post("/sign-up/email", { name: "Flo", email, password: PASSWORD });
    expect([refused.status, refused.body]).toEqual([403, { code: "FORBIDDEN", message: "Not today" }]);
    expect(await userCount(email)).toBe(0);
  });

  it("session.delete sees sign-out's session; its refusal keeps the session", async () => {
    const account = await signUp(server);
    slots.database.session = { delete: { before: () => false } };
    const refused = await account.browser.post("/sign-out", {});
    expect([refused.status, refused.body.code]).toEqual([403, "FORBIDDEN"]);
    expect((await account.browser.get("/get-session")).body?.user.id).toBe(account.user.id);

    const seen: { userId: string }[] = [];
    slots.database.session = { delete: { after: (row) => void seen.push(row) } };
    expect((await account.browser.post("/sign-out", {})).status).toBe(200);
    expect(seen).toEqual([expect.objectContaining({ userId: account.user.id })]);
    expect((await account.browser.get("/get-session")).body).toBeNull();
  });
});

describe("hooks are options in code", () => {
  const base = { baseURL: "http://localhost:3000", secret: TEST_SECRET, database: "sqlite::memory:", migrate: false };

  it("refuses hooks in the JSON options and hooks that are not functions, in words", async () => {
    await expect(createAuth({ ...base, options: { hooks: {} } as never })).rejects.toThrow(
      /option "hooks" takes functions, so it is given in code/,
    );
    await expect(createAuth({ ...base, hooks: { before: "deny" } as never })).rejects.toThrow(
      new ConfigError("hooks.before must be a function"),
    );
    await expect(createAuth({ ...base, databaseHooks: { users: {} } as never })).rejects.toThrow(
      /databaseHooks: unknown key "users"/,
    );
  });
});
