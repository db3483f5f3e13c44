import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../src/cli/run.js";
import { makeBetterAuthDatabase } from "./helpers/better-auth-source.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { createOrganization } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * `gatehouse import` into a running Gatehouse's database (the dialect under test), from exports
 * made by the other systems' own code, then sign-in through Gatehouse's HTTP API.
 */

const FIXTURES = join(import.meta.dirname, "fixtures/import");
const FIREBASE_PROJECT = {
  signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  saltSeparator: "Bw==",
};

let workDir: string;
let server: TestServer;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "gatehouse-import-"));
  server = await startTestServer({
    shareable: true,
    options: {
      organization: { enabled: true },
      // Firebase's published example project (firebase/scrypt README), whose hash the fixture holds.
      emailAndPassword: { legacyHashes: { firebaseScrypt: FIREBASE_PROJECT } },
    },
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(workDir, { recursive: true, force: true });
});

/** `gatehouse import <args>` in process, writing to the test server's database. */
async function gatehouseImport(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(["import", ...args], {
    env: { DATABASE_URL: server.databaseUrl },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

const count = async (table: "user" | "account" | "member" | "organization") =>
  Number(
    (
      await server.auth.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("import --from better-auth", () => {
  const people = [
    { email: "ada@ba.example", password: "ada's long passphrase", name: "Ada" },
    { email: "bob@ba.example", password: "bob's long passphrase", name: "Bob" },
    { email: "carol@ba.example", password: "carol's long passphrase", name: "Carol" },
  ];
  let path: string;

  beforeAll(async () => {
    path = join(workDir, "better-auth.sqlite");
    await makeBetterAuthDatabase(path, people, "acme-ba");
    // Rows better-auth would not have made, but a hand-edited database may hold.
    const sqlite = new Database(path);
    const row = sqlite.prepare(
      `insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") values (?, ?, ?, 0, ?, ?)`,
    );
    const at = new Date().toISOString();
    row.run("zz-no-email", "Nobody", "", at, at);
    row.run("zz-bad-email", "Bad", "not-an-email", at, at);
    row.run("zz-odd-hash", "Odd", "odd@ba.example", at, at);
    sqlite
      .prepare(
        `insert into "account" ("id", "accountId", "providerId", "userId", "password", "createdAt", "updatedAt") values ('acc-odd', 'zz-odd-hash', 'credential', 'zz-odd-hash', 'plain:text', ?, ?)`,
      )
      .run(at, at);
    sqlite.close();
    // Carol already has a Gatehouse account: a conflict, reported and left alone.
    const carol = await server
      .browser()
      .post("/sign-up/email", { email: "carol@ba.example", password: "another passphrase here", name: "Carol G" });
    expect(carol.status).toBe(200);
  });

  it("dry run reports users, hash formats, conflicts and refused rows, and writes nothing", async () => {
    const run = await gatehouseImport("--from", "better-auth", "--source", path);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("users read: 6");
    expect(run.stdout).toContain("users to import: 2");
    expect(run.stdout).toContain("conflicts (skipped): 1");
    expect(run.stdout).toMatch(/carol@ba\.example: email already present/);
    expect(run.stdout).toContain("rows refused: 3");
    expect(run.stdout).toMatch(/: no email/);
    expect(run.stdout).toMatch(/not-an-email: invalid email/);
    expect(run.stdout).toMatch(/odd@ba\.example: unknown hash format/);
    expect(run.stdout).toContain("better-auth-scrypt 3");
    expect(run.stdout).toContain("organizations to import: 1");
    expect(await count("user")).toBe(1);
    expect(await count("organization")).toBe(0);
  });

  it("--apply writes users, passwords and memberships; they sign in with the same password and see the organization", async () => {
    const run = await gatehouseImport("--from", "better-auth", "--source", path, "--apply");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("users imported: 2");
    expect(run.stderr).toMatch(/import: 6 users read/);
    expect(await count("user")).toBe(3);

    for (const [person, role] of [
      [people[0]!, "owner"],
      [people[1]!, "admin"],
    ] as const) {
      const browser = server.browser();
      const signIn = await browser.post("/sign-in/email", { email: person.email, password: person.password });
      expect(signIn.status).toBe(200);
      const organizations = await browser.get("/organization/list");
      expect(organizations.body.map((o: { slug: string }) => o.slug)).toEqual(["acme-ba"]);
      const full = await browser.get("/organization/get-full-organization?organizationSlug=acme-ba");
      const me = full.body.members.find((m: { user: { email: string } }) => m.user.email === person.email);
      expect(me.role).toBe(role);
    }
    // Carol's own account is untouched: her Gatehouse password still works, the other does not.
    const carol = await server
      .browser()
      .post("/sign-in/email", { email: "carol@ba.example", password: people[2]!.password });
    expect(carol.status).toBe(401);
  });

  it("a second run changes nothing", async () => {
    const before = await Promise.all([count("user"), count("account"), count("member"), count("organization")]);
    const run = await gatehouseImport("--from", "better-auth", "--source", path, "--apply");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("users imported: 0");
    expect(run.stdout).toContain("users already imported (skipped): 2");
    expect(run.stdout).toContain("already imported: 1");
    expect(await Promise.all([count("user"), count("account"), count("member"), count("organization")])).toEqual(
      before,
    );
  });

  it("says what is wrong with the arguments or the source", async () => {
    expect((await gatehouseImport("--from", "nowhere", "--source", path)).code).toBe(64);
    const missing = await gatehouseImport("--from", "better-auth", "--source", join(workDir, "missing.sqlite"));
    expect(missing.code).toBe(66);
    expect(missing.stderr).toMatch(/no SQLite database/);
  });
});

describe("import --from better-auth: an organization whose slug is taken", () => {
  it("reports the organization as a conflict, leaves out its memberships, and still brings the users", async () => {
    await createOrganization(server, { slug: "taken-slug" });
    const path = join(workDir, "taken.sqlite");
    const people = [
      { email: "tara@taken.example", password: "tara's long passphrase", name: "Tara" },
      { email: "theo@taken.example", password: "theo's long passphrase", name: "Theo" },
    ];
    await makeBetterAuthDatabase(path, people, "taken-slug");
    const run = await gatehouseImport("--from", "better-auth", "--source", path, "--apply");
    expect(run.stdout).toContain("users imported: 2");
    expect(run.stdout).toMatch(/line 1: slug "taken-slug" belongs to another organization/);
    expect(run.stdout).toContain("memberships left out (their organization was not imported): 2");
    const browser = server.browser();
    expect(
      (await browser.post("/sign-in/email", { email: people[0]!.email, password: people[0]!.password })).status,
    ).toBe(200);
    expect((await browser.get("/organization/list")).body).toEqual([]);
  });

  it("an unreachable source database is said in words", async () => {
    const run = await gatehouseImport("--from", "better-auth", "--source", "postgres://nobody@127.0.0.1:1/none");
    expect([run.code, run.stderr]).toEqual([66, expect.stringMatching(/cannot connect to the source database/)]);
  });
});

describe.runIf(dialectUnderTest() === "postgres")("import --from better-auth (a PostgreSQL database)", () => {
  it("reads better-auth's tables from a postgres:// URL; the users sign in and see their organization", async () => {
    const source = await freshDatabaseUrl();
    try {
      const people = [
        { email: "pat@ba-pg.example", password: "pat's long passphrase", name: "Pat" },
        { email: "quinn@ba-pg.example", password: "quinn's long passphrase", name: "Quinn" },
      ];
      await makeBetterAuthDatabase(source.url, people, "acme-ba-pg");
      const run = await gatehouseImport("--from", "better-auth", "--source", source.url, "--apply");
      expect(run.stdout).toContain("users imported: 2");
      expect(run.stdout).toContain("organizations imported: 1");
      const browser = server.browser();
      expect(
        (await browser.post("/sign-in/email", { email: people[1]!.email, password: people[1]!.password })).status,
      ).toBe(200);
      const organizations = await browser.get("/organization/list");
      expect(organizations.body.map((o: { slug: string }) => o.slug)).toEqual(["acme-ba-pg"]);
    } finally {
      await source.drop();
    }
  });
});

/**
 * The file exports, from fixtures whose hashes other code made (bcryptjs; Firebase's published
 * example). Each: the dry run's counts and refusals, then --apply, sign-in with the same password
 * (which replaces the hash with argon2id), and a second run that changes nothing.
 */
describe.each([
  {
    from: "auth0",
    file: "auth0-users.ndjson",
    flags: [] as string[],
    read: 5,
    imported: 2,
    formats: "bcrypt 1, none 1",
    refused: [/line 3: not a JSON object/, /line 4: no email/, /line 5: una@auth0\.example: unknown hash format/],
    signIn: { email: "alice@auth0.example", password: "alice auth0 passphrase" },
    social: { email: "gary@auth0.example", providerId: "google", accountId: "1234567890" },
  },
  {
    from: "supabase",
    file: "supabase-users.csv",
    flags: [],
    read: 2,
    imported: 1,
    formats: "bcrypt 1",
    refused: [/line 3: no email/],
    signIn: { email: "sue@supabase.example", password: "sue supabase passphrase" },
  },
  {
    from: "supabase",
    file: "supabase-users.json",
    flags: [],
    read: 1,
    imported: 1,
    formats: "bcrypt 1",
    refused: [],
    signIn: { email: "sam@supabase.example", password: "sam supabase passphrase" },
  },
  {
    from: "clerk",
    file: "clerk-users.csv",
    flags: [],
    read: 4,
    imported: 2,
    formats: "bcrypt 1, none 1",
    refused: [/line 3: unknown hash format \(Clerk hasher "scrypt_werkzeug"\)/, /line 4: not-an-email: invalid email/],
    signIn: { email: "carl@clerk.example", password: "carl clerk passphrase" },
  },
  {
    from: "firebase",
    file: "firebase-users.json",
    flags: ["--firebase-params", join(FIXTURES, "firebase-params.txt")],
    read: 2,
    imported: 2,
    formats: "firebase-scrypt 1, none 1",
    refused: [],
    signIn: { email: "fiona@firebase.example", password: "user1password" },
    social: { email: "gus@firebase.example", providerId: "google", accountId: "109876543210" },
  },
])("import --from $from ($file)", (source) => {
  const args = () => ["--from", source.from, "--source", join(FIXTURES, source.file), ...source.flags];

  it("dry run counts users and hash formats and lists refused rows with their line", async () => {
    const run = await gatehouseImport(...args());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`users read: ${source.read}`);
    expect(run.stdout).toContain(`users to import: ${source.imported}`);
    expect(run.stdout).toContain(`password hash formats: ${source.formats}`);
    expect(run.stdout).toContain(`rows refused: ${source.refused.length}`);
    for (const refusal of source.refused) expect(run.stdout).toMatch(refusal);
  });

  it("--apply writes them; they sign in with the same password; a second run changes nothing", async () => {
    const before = await count("user");
    const run = await gatehouseImport(...args(), "--apply");
    expect(run.stdout).toContain(`users imported: ${source.imported}`);
    expect(await count("user")).toBe(before + source.imported);

    const signIn = await server.browser().post("/sign-in/email", source.signIn);
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.email).toBe(source.signIn.email);
    if (source.social) {
      const account = await server.auth.database.db
        .selectFrom("account")
        .innerJoin("user", "user.id", "account.userId")
        .select(["account.providerId", "account.accountId"])
        .where("user.email", "=", source.social.email)
        .executeTakeFirstOrThrow();
      expect(account).toEqual({ providerId: source.social.providerId, accountId: source.social.accountId });
    }

    const again = await gatehouseImport(...args(), "--apply");
    expect(again.stdout).toContain("users imported: 0");
    expect(again.stdout).toContain(`users already imported (skipped): ${source.imported}`);
    expect(await count("user")).toBe(before + source.imported);
  });
});

describe("import --from firebase without the project's parameters", () => {
  it("refuses to start: its hashes would be written without their cost", async () => {
    const run = await gatehouseImport("--from", "firebase", "--source", join(FIXTURES, "firebase-users.json"));
    expect(run.code).toBe(66);
    expect(run.stderr).toMatch(/--firebase-params/);
  });
});

describe("import throughput", () => {
  it("writes 20,000 users well within the time the 100,000-a-minute target allows", async () => {
    const users = 20_000;
    const path = join(workDir, "many.ndjson");
    const hash = "$2b$04$25YaYpSSuNKG00Kusaats.LdAfwaruXYYCQHyjTp7v2S8x3Rkxdm2";
    const lines = Array.from({ length: users }, (_, i) =>
      JSON.stringify({
        user_id: `auth0|bulk${i}`,
        email: `bulk${i}@many.example`,
        name: `Bulk ${i}`,
        passwordHash: hash,
      }),
    );
    writeFileSync(path, `${lines.join("\n")}\n`);
    const started = performance.now();
    const run = await gatehouseImport("--from", "auth0", "--source", path, "--apply");
    const seconds = (performance.now() - started) / 1000;
    expect(run.stdout).toContain(`users imported: ${users}`);
    const perMinute = Math.round((users / seconds) * 60);
    console.log(
      `import throughput (${dialectUnderTest()}): ${perMinute} users a minute (${users} in ${seconds.toFixed(1)} s)`,
    );
    // A floor far below the target (a shared 2-core machine), so that only a real slowdown fails it.
    expect(perMinute).toBeGreaterThan(25_000);
  });
});
