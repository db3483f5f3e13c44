import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { rowCounts } from "./helpers/database.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// Inputs a security review sent that used to answer 500 (several only on PostgreSQL): each must be
// a 400 with {code, message} and change nothing, on both databases.

let server: TestServer;
let admin: Awaited<ReturnType<typeof signUp>>;
let owner: Awaited<ReturnType<typeof signUp>>;
let organizationId: string;

beforeAll(async () => {
  server = await startTestServer({ options: { organization: { teams: { enabled: true } } } });
  admin = await signUp(server);
  await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
  owner = await signUp(server);
  const created = await owner.browser.post("/organization/create", { name: "Bounds", slug: "bounds" });
  organizationId = created.body.id;
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

/** Row counts of the tables a refused request could have touched. */
const snapshot = () =>
  rowCounts(server.auth.database.db, ["user", "session", "organization", "invitation", "member", "verification"]);

function deep(levels: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const NUL = "\u0000";
const email = () => `bounds-${Math.random().toString(36).slice(2, 10)}@example.com`;

type Case = [string, (b: { admin: TestBrowser; owner: TestBrowser; anyone: TestBrowser }) => Promise<any>];

const cases: Case[] = [
  [
    "ban-user with banExpiresIn 8.64e12",
    (b) => b.admin.post("/admin/ban-user", { userId: owner.user.id, banExpiresIn: 8.64e12 }),
  ],
  [
    "list-members offset 2^64",
    (b) => b.owner.get(`/organization/list-members?organizationId=${organizationId}&offset=18446744073709551616`),
  ],
  ["list-users offset 2^64", (b) => b.admin.get("/admin/list-users?offset=18446744073709551616")],
  [
    "organization metadata 100,000 levels deep",
    // Written as text: JSON.stringify itself would overflow the stack on this.
    (b) =>
      b.owner.post(
        "/organization/create",
        `{"name":"Deep","slug":"deep","metadata":${'{"a":'.repeat(100_000)}"leaf"${"}".repeat(100_000)}}`,
        { headers: { "content-type": "application/json" } },
      ),
  ],
  [
    "organization metadata 20 levels deep",
    (b) => b.owner.post("/organization/create", { name: "Deep", slug: "deep20", metadata: deep(20) }),
  ],
  [
    "invite-member with 40,000 team ids",
    (b) =>
      b.owner.post("/organization/invite-member", {
        email: email(),
        role: "member",
        organizationId,
        teamId: Array.from({ length: 40_000 }, (_, i) => `team-${i}`),
      }),
  ],
  [
    "sign-up with a NUL in the name",
    (b) => b.anyone.post("/sign-up/email", { name: `a${NUL}b`, email: email(), password: "sturdy-pass-123" }),
  ],
  [
    "sign-up with a NUL in the email",
    (b) => b.anyone.post("/sign-up/email", { name: "n", email: `a${NUL}@example.com`, password: "sturdy-pass-123" }),
  ],
  [
    "sign-in with a NUL in the password",
    (b) => b.anyone.post("/sign-in/email", { email: owner.email, password: `x${NUL}` }),
  ],
  [
    "create-organization with a NUL in the slug",
    (b) => b.owner.post("/organization/create", { name: "N", slug: `s${NUL}` }),
  ],
  [
    "get-full-organization with a NUL in the id",
    (b) => b.owner.get(`/organization/get-full-organization?organizationId=x%00y`),
  ],
  [
    "reset-password with a NUL in the token",
    (b) => b.anyone.post("/reset-password", { newPassword: "sturdy-pass-123", token: `t${NUL}` }),
  ],
  ["verify-email with a NUL in the token", (b) => b.anyone.get("/verify-email?token=a%00b")],
  ["admin get-user with a NUL in the id", (b) => b.admin.get("/admin/get-user?id=%00")],
  [
    "a NUL in a key",
    (b) => b.owner.post("/organization/create", { name: "K", slug: "k", metadata: { [`k${NUL}`]: 1 } }),
  ],
  [
    "a __proto__ key",
    (b) =>
      b.owner.post("/organization/create", { name: "P", slug: "p", metadata: JSON.parse('{"__proto__": {"x": 1}}') }),
  ],
  ["a name of 900,000 characters", (b) => b.owner.post("/update-user", { name: "n".repeat(900_000) })],
  [
    "a name of 257 characters at sign-up",
    (b) => b.anyone.post("/sign-up/email", { name: "n".repeat(257), email: email(), password: "sturdy-pass-123" }),
  ],
  ["an image javascript: URL", (b) => b.owner.post("/update-user", { image: "javascript:alert(1)" })],
  [
    "an image data: URL at sign-up",
    (b) =>
      b.anyone.post("/sign-up/email", {
        name: "n",
        email: email(),
        password: "sturdy-pass-123",
        image: "data:text/html,x",
      }),
  ],
  ["an image vbscript: URL", (b) => b.owner.post("/update-user", { image: "vbscript:msgbox(1)" })],
  ["an image data:text/html URL", (b) => b.owner.post("/update-user", { image: "data:text/html,<script>x</script>" })],
  ["an image that is no URL", (b) => b.owner.post("/update-user", { image: "me.png" })],
  [
    "an image javascript: URL at sign-up",
    (b) =>
      b.anyone.post("/sign-up/email", {
        name: "n",
        email: email(),
        password: "sturdy-pass-123",
        image: "javascript:alert(1)",
      }),
  ],
  [
    "a data:image URL of 2,049 characters",
    (b) => b.owner.post("/update-user", { image: `data:image/png;base64,${"A".repeat(2049 - 22)}` }),
  ],
  [
    "an image URL of 2,049 characters",
    (b) => b.owner.post("/update-user", { image: `https://img.example/${"a".repeat(2049 - 20)}` }),
  ],
  [
    "an organization logo javascript: URL",
    (b) => b.owner.post("/organization/update", { organizationId, data: { logo: "javascript:alert(1)" } }),
  ],
  [
    "an admin setting a javascript: image",
    (b) => b.admin.post("/admin/update-user", { userId: owner.user.id, data: { image: "javascript:alert(1)" } }),
  ],
  [
    "an admin setting a 300-character name",
    (b) => b.admin.post("/admin/update-user", { userId: owner.user.id, data: { name: "n".repeat(300) } }),
  ],
];

describe("bad input is a 400 with {code, message} and changes nothing", () => {
  it.each(cases)("%s", async (_name, send) => {
    const before = await snapshot();
    const res = await send({ admin: admin.browser, owner: owner.browser, anyone: server.browser() });
    expect([res.status, typeof res.body?.code, typeof res.body?.message]).toEqual([400, "string", "string"]);
    expect(await snapshot()).toEqual(before);
  });

  it("still accepts the honest versions", async () => {
    const ok = [
      await owner.browser.post("/update-user", { name: "n".repeat(256), image: "https://img.example/a.png" }),
      await owner.browser.post("/organization/create", { name: "Meta", slug: "meta", metadata: deep(10) }),
      await admin.browser.post("/admin/ban-user", { userId: owner.user.id, banExpiresIn: 86400 }),
      await admin.browser.post("/admin/unban-user", { userId: owner.user.id }),
    ];
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it("keeps the stored picture when a bad one is refused, and takes data:image URLs", async () => {
    const painter = await signUp(server);
    const storedImage = async () =>
      (
        await server.auth.database.db
          .selectFrom("user")
          .select("image")
          .where("id", "=", painter.user.id)
          .executeTakeFirstOrThrow()
      ).image;
    const inline = "data:image/svg+xml;base64,PHN2Zy8+";
    expect((await painter.browser.post("/update-user", { image: inline })).status).toBe(200);
    expect(await storedImage()).toBe(inline);
    const refused = await painter.browser.post("/update-user", { name: "Renamed", image: "javascript:alert(1)" });
    expect([refused.status, refused.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(await storedImage()).toBe(inline);
    const inlineSignUp = await server.browser().post("/sign-up/email", {
      name: "Inline",
      email: email(),
      password: "sturdy-pass-123",
      image: "data:image/png;base64,iVBORw0KGgo=",
    });
    expect([inlineSignUp.status, inlineSignUp.body.user?.image]).toEqual([200, "data:image/png;base64,iVBORw0KGgo="]);
  });
});
