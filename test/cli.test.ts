import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serve } from "@hono/node-server";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../src/server/auth.js";
import { TestBrowser } from "./helpers/browser.js";
import { freshDatabaseUrl } from "./helpers/database.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { testHasher } from "./helpers/server.js";

/**
 * The `gatehouse` command as a real child process: bundled by esbuild as `npm run build:cli` does
 * (the file `npx gatehouse` runs), against the dialect under test. tsx would run the same source, at
 * three times the start-up cost per run.
 */

const ROOT = resolve(import.meta.dirname, "..");
/** Built once per file with the package's own build:cli command line, into the work folder. */
let CLI: string;
const SECRET = "cli-test-secret-that-is-long-enough-0123456789";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let workDir: string;
const databases: { url: string; drop(): Promise<void> }[] = [];

/** A fresh database of the dialect under test (an SQLite file in the work folder, or a new PostgreSQL database). */
async function freshDatabase(): Promise<string> {
  if (process.env.TEST_DIALECT !== "postgres") {
    return `sqlite:${join(workDir, `db-${databases.length}-${Date.now()}.sqlite`)}`;
  }
  const database = await freshDatabaseUrl();
  databases.push(database);
  return database.url;
}

/** Runs `gatehouse <args>` with only the given environment (plus PATH), in the work folder. */
function gatehouse(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: workDir, env: { PATH: process.env.PATH ?? "", HOME: workDir, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"));
  CLI = join(workDir, "cli/main.js");
  await build({
    entryPoints: [join(ROOT, "src/cli/main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "warning",
    outfile: CLI,
    // Bare imports resolve from the repository's node_modules, as they would from an installed package.
    nodePaths: [join(ROOT, "node_modules")],
  });
  symlinkSync(join(ROOT, "node_modules"), join(workDir, "node_modules"));
});
afterAll(async () => {
  for (const database of databases) await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe("migrate", () => {
  it("applies every migration, and a second run does nothing", async () => {
    const url = await freshDatabase();
    const first = await gatehouse(["migrate"], { DATABASE_URL: url });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ migration\(s\)/);
    const second = await gatehouse(["migrate"], { DATABASE_URL: url });
    expect([second.code, second.stdout]).toEqual([0, expect.stringContaining("already up to date")]);
  });

  it("refuses an unknown argument and an unknown command with a usage exit code", async () => {
    const unknownOption = await gatehouse(["migrate", "--force"], {});
    expect(unknownOption.code).toBe(64);
    expect(unknownOption.stderr).toContain("--force");
    const unknownCommand = await gatehouse(["migrat"], {});
    expect(unknownCommand.code).toBe(64);
    expect(unknownCommand.stderr).toContain('unknown command "migrat"');
  });
});

describe("generate-secret", () => {
  it("prints a new random secret each time, which createAuth accepts", async () => {
    const [one, two] = await Promise.all([gatehouse(["generate-secret"], {}), gatehouse(["generate-secret"], {})]);
    const secret = one?.stdout.trim() ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(two?.stdout.trim()).not.toBe(secret);
    const auth = await createAuth({ baseURL: "http://localhost:3000", secret, database: "sqlite::memory:" });
    await auth.close();
  });
});

describe("create-admin", () => {
  let url: string;
  let auth: Auth;
  let origin: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    url = await freshDatabase();
    let app: Auth | null = null;
    const server = serve({
      fetch: (request, env) => (app ? app.handler(request, env) : new Response(null, { status: 503 })),
      port: 0,
      hostname: "127.0.0.1",
    });
    await new Promise<void>((ready) => server.once("listening", () => ready()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    auth = await createAuth({
      baseURL: origin,
      secret: SECRET,
      database: url,
      hasher: testHasher,
      options: { rateLimit: { enabled: false } },
    });
    app = auth;
    close = async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await auth.close();
    };
  });
  afterAll(() => close());

  const env = () => ({ DATABASE_URL: url, AUTH_SECRET: SECRET, BASE_URL: origin });

  async function signIn(email: string, password: string): Promise<TestBrowser> {
    const browser = new TestBrowser(origin);
    const res = await browser.post("/sign-in/email", { email, password });
    expect(res.status).toBe(200);
    return browser;
  }

  it("creates an admin who can then use the /admin/ routes; a second run changes nothing", async () => {
    const created = await gatehouse(
      ["create-admin", "--email", "Root@Example.com", "--password", "sturdy-pass-123"],
      env(),
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created root@example\.com with the role "admin"; user id \S+/);

    const admin = await signIn("root@example.com", "sturdy-pass-123");
    const listed = await admin.get("/admin/list-users");
    expect(listed.status).toBe(200);
    expect(listed.body.users.map((u: { email: string }) => u.email)).toContain("root@example.com");

    const again = await gatehouse(
      ["create-admin", "--email", "root@example.com", "--password", "other-pass-456"],
      env(),
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already an admin (nothing changed)");
    // The password was not touched by the second run.
    await signIn("root@example.com", "sturdy-pass-123");
  });

  it("promotes an existing user (password unchanged), then is idempotent", async () => {
    const browser = new TestBrowser(origin);
    const signUp = await browser.post("/sign-up/email", {
      name: "Existing",
      email: "existing@example.com",
      password: "existing-pass-1",
    });
    expect(signUp.status).toBe(200);
    expect((await browser.get("/admin/list-users")).status).toBe(403);

    const promoted = await gatehouse(["create-admin", "--email", "existing@example.com"], env());
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('existing@example.com now has the role "user,admin" (password unchanged)');
    const again = await gatehouse(["create-admin", "--email", "existing@example.com"], env());
    expect(again.stdout).toContain("already an admin");

    const admin = await signIn("existing@example.com", "existing-pass-1");
    expect((await admin.get("/admin/list-users")).status).toBe(200);
    const audit = await admin.get(`/admin/list-audit-log?targetUserId=${signUp.body.user.id}`);
    expect(audit.body.entries).toEqual([
      expect.objectContaining({ action: "user.set-role", userAgent: "gatehouse create-admin" }),
    ]);
  });

  it("refuses a new address without --password, a bad email and a short password, creating nobody", async () => {
    const noPassword = await gatehouse(["create-admin", "--email", "new@example.com"], env());
    expect(noPassword.code).toBe(65);
    expect(noPassword.stderr).toContain("give --password to create one");
    const badEmail = await gatehouse(
      ["create-admin", "--email", "not-an-email", "--password", "sturdy-pass-123"],
      env(),
    );
    expect([badEmail.code, badEmail.stderr]).toEqual([65, expect.stringContaining("INVALID_EMAIL")]);
    const short = await gatehouse(["create-admin", "--email", "new@example.com", "--password", "short"], env());
    expect([short.code, short.stderr]).toEqual([65, expect.stringContaining("PASSWORD_TOO_SHORT")]);
    const missing = await gatehouse(["create-admin"], env());
    expect(missing.code).toBe(64);
    const found = await auth.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "new@example.com")
      .execute();
    expect(found).toEqual([]);
  });
});

describe("doctor", () => {
  let mail: MailCapture;
  let migrated: string;
  let good: Record<string, string>;

  beforeAll(async () => {
    mail = await startMailCapture();
    migrated = await freshDatabase();
    expect((await gatehouse(["migrate"], { DATABASE_URL: migrated })).code).toBe(0);
    good = {
      DATABASE_URL: migrated,
      AUTH_SECRET: SECRET,
      REDIS_URL: "redis://127.0.0.1:6379",
      SMTP_URL: mail.url,
    };
  });
  afterAll(() => mail.close());

  it("exits 0 on a good setup", async () => {
    const run = await gatehouse(["doctor"], good);
    expect(run.stdout).toContain("no problems found");
    expect(run.stdout).not.toContain("PROBLEM");
    expect(run.code).toBe(0);
  });

  it("names each problem in words and exits non-zero", { timeout: 120_000 }, async () => {
    const pendingDatabase = await freshDatabase();
    // An empty SQLite file: it exists, but nothing was migrated (PostgreSQL: a new, empty database).
    if (pendingDatabase.startsWith("sqlite:")) writeFileSync(pendingDatabase.slice("sqlite:".length), "");
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        "short secret",
        { AUTH_SECRET: "too-short" },
        /PROBLEM {2}AUTH_SECRET: only 9 characters; it must be at least 32/,
      ],
      [
        "guessable secret",
        { AUTH_SECRET: "abcabcabcabcabcabcabcabcabcabcabcabc" },
        /PROBLEM {2}AUTH_SECRET: looks guessable/,
      ],
      [
        "unreachable database",
        { DATABASE_URL: "postgres://gatehouse:db-password-42@127.0.0.1:1/gatehouse" },
        /PROBLEM {2}database: postgres:\/\/gatehouse@127\.0\.0\.1:1\/gatehouse does not answer/,
      ],
      [
        "pending migrations",
        { DATABASE_URL: pendingDatabase },
        /PROBLEM {2}database: .*migration\(s\) not applied \(run gatehouse migrate\)/,
      ],
      [
        "unreachable Redis",
        { REDIS_URL: "redis://:redis-password-42@127.0.0.1:1" },
        /PROBLEM {2}REDIS_URL: 127\.0\.0\.1:1 does not answer/,
      ],
      [
        "unreachable SMTP",
        { SMTP_URL: "smtp://mailer:smtp-password-42@127.0.0.1:1" },
        /PROBLEM {2}SMTP_URL: 127\.0\.0\.1:1 cannot be reached/,
      ],
      [
        "http BASE_URL in production",
        { NODE_ENV: "production", BASE_URL: "http://auth.example.com" },
        /PROBLEM {2}BASE_URL: http:\/\/auth\.example\.com is http:\/\/ with NODE_ENV=production/,
      ],
      ["invalid AUTH_CONFIG", { AUTH_CONFIG: join(workDir, "missing.json") }, /PROBLEM {2}AUTH_CONFIG: .*cannot read/],
    ];
    // One at a time: the machine has two cores, and each run waits on its own timeouts.
    const runs: Run[] = [];
    for (const [, env] of cases) runs.push(await gatehouse(["doctor"], { ...good, ...env }));
    cases.forEach(([name, env, expected], i) => {
      const run = runs[i] as Run;
      expect(run.stdout, name).toMatch(expected);
      expect(run.stdout, name).toContain("1 problem(s) found");
      expect(run.code, name).toBe(1);
      // Secrets and passwords never reach the output.
      for (const value of Object.values(env)) {
        if (/password-42|abcabc/.test(value))
          expect(run.stdout, name).not.toContain(value.match(/[a-z]+-password-42|abcabc\w+/)?.[0]);
      }
      expect(run.stdout).not.toContain(SECRET);
    });
  });
});

describe("start", () => {
  it("serves, and logs where its options, database and mail come from and which features are on", async () => {
    const url = await freshDatabase();
    const config = join(workDir, "only-admin.json");
    writeFileSync(config, JSON.stringify({ admin: { adminUserIds: ["someone"] } }));
    const child: ChildProcess = spawn(process.execPath, [CLI, "start"], {
      cwd: workDir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: workDir,
        PORT: "0",
        DATABASE_URL: url,
        AUTH_SECRET: SECRET,
        AUTH_CONFIG: config,
        SMTP_URL: "smtp://mailer:smtp-password-42@127.0.0.1:2525",
      },
    });
    let output = "";
    try {
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`no start-up summary:\n${output}`)), 20_000);
        child.stdout?.on("data", (chunk) => {
          output += chunk;
          if (output.includes("features off:")) {
            clearTimeout(timer);
            ready();
          }
        });
        child.stderr?.on("data", (chunk) => {
          output += chunk;
        });
        child.once("exit", (code) => fail(new Error(`exited ${code}:\n${output}`)));
      });
      const port = output.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/)?.[1];
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/ok`);
      expect(res.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    expect(output).toContain(`options:  ${config} (over the documented defaults)`);
    expect(output).toMatch(/database: (sqlite:|postgres:\/\/)/);
    expect(output).toContain("mail:     SMTP 127.0.0.1:2525");
    // A file that only sets admin leaves on what the documented defaults turn on.
    expect(output).toMatch(/features on: {2}emailAndPassword, organization, admin, jwt, anonymous, rateLimit/);
    expect(output).not.toContain("smtp-password-42");
    expect(output).not.toContain("mailer");
    expect(output).not.toContain(SECRET);
  });
});
