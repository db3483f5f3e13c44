import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../src/cli/run.js";
import { type Auth, createAuth } from "../src/server/auth.js";
import { TestBrowser } from "./helpers/browser.js";
import { bundleInto } from "./helpers/bundle.js";
import { freshDatabaseUrl } from "./helpers/database.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";
import { testHasher } from "./helpers/server.js";

/**
 * The `gatehouse` command, against the dialect under test. Most cases call it in process (runCommand
 * with the case's environment, standard input and output): a child process costs a second or more
 * each. A few run the real thing: bundled by esbuild as `npm run build:cli` does (the file
 * `npx gatehouse-auth` runs), as a child process, to prove the bundle, exit codes and stdin work.
 */

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

/** Runs `gatehouse <args>` as a process with only the given environment (plus PATH) and stdin, in the work folder. */
function gatehouse(args: string[], env: Record<string, string>, stdin = ""): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: workDir, env: { PATH: process.env.PATH ?? "", HOME: workDir, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

/** Runs `gatehouse <args>` in this process, with only the given environment and stdin (piped, not a terminal). */
async function inProcess(args: string[], env: Record<string, string>, stdin = "", cwd?: string): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const input = Object.assign(Readable.from(stdin === "" ? [] : [stdin]), { isTTY: false });
  const code = await runCommand(args, {
    env: { ...env },
    cwd,
    stdin: input,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "gatehouse-cli-"));
  CLI = await bundleInto(workDir, "src/cli/main.ts");
});
afterAll(async () => {
  for (const database of databases) await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe("migrate", () => {
  it("applies every migration, and a second run does nothing (a real process)", async () => {
    const url = await freshDatabase();
    const first = await gatehouse(["migrate"], { DATABASE_URL: url });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ migration\(s\)/);
    const second = await inProcess(["migrate"], { DATABASE_URL: url });
    expect([second.code, second.stdout]).toEqual([0, expect.stringContaining("already up to date")]);
  });

  it("refuses an unknown argument and an unknown command with a usage exit code", async () => {
    const unknownOption = await inProcess(["migrate", "--force"], {});
    expect(unknownOption.code).toBe(64);
    expect(unknownOption.stderr).toContain("--force");
    // The dispatcher's own refusal, once through a real process.
    const unknownCommand = await gatehouse(["migrat"], {});
    expect(unknownCommand.code).toBe(64);
    expect(unknownCommand.stderr).toContain('unknown command "migrat"');
  });
});

describe("generate-secret", () => {
  it("prints a new random secret each time, which createAuth accepts", async () => {
    const [one, two] = await Promise.all([inProcess(["generate-secret"], {}), inProcess(["generate-secret"], {})]);
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

  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: url,
    AUTH_SECRET: SECRET,
    BASE_URL: origin,
    ...extra,
  });
  const db = () => auth.database.db;

  async function signIn(email: string, password: string): Promise<TestBrowser> {
    const browser = new TestBrowser(origin);
    const res = await browser.post("/sign-in/email", { email, password });
    expect(res.status).toBe(200);
    return browser;
  }

  async function signUp(email: string, password: string) {
    const browser = new TestBrowser(origin);
    const res = await browser.post("/sign-up/email", { name: "Someone", email, password });
    expect(res.status).toBe(200);
    return { browser, id: res.body.user.id as string };
  }

  it("creates an admin from a password piped on stdin (a real process); a second run changes nothing", async () => {
    const created = await gatehouse(["create-admin", "--email", "Root@Example.com"], env(), "sturdy-pass-123\n");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created root@example\.com with the role "admin"; user id \S+/);

    const admin = await signIn("root@example.com", "sturdy-pass-123");
    const listed = await admin.get("/admin/list-users");
    expect(listed.status).toBe(200);
    expect(listed.body.users.map((u: { email: string }) => u.email)).toContain("root@example.com");

    const again = await inProcess(["create-admin", "--email", "root@example.com"], env(), "other-pass-456");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already an admin (nothing changed)");
    // The password was not touched by the second run.
    await signIn("root@example.com", "sturdy-pass-123");
  });

  it("takes the password from GATEHOUSE_ADMIN_PASSWORD too", async () => {
    const created = await inProcess(
      ["create-admin", "--email", "from-env@example.com"],
      env({ GATEHOUSE_ADMIN_PASSWORD: "sturdy-env-pass-1" }),
    );
    expect([created.code, created.stdout]).toEqual([0, expect.stringContaining("created from-env@example.com")]);
    await signIn("from-env@example.com", "sturdy-env-pass-1");
  });

  it("refuses --password, saying why, and creates nobody", async () => {
    const run = await inProcess(
      ["create-admin", "--email", "argv@example.com", "--password", "sturdy-pass-123"],
      env(),
    );
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("--password is not accepted");
    expect(run.stderr).toContain("ps");
    expect(run.stderr).toContain("GATEHOUSE_ADMIN_PASSWORD");
    expect(await db().selectFrom("user").select("id").where("email", "=", "argv@example.com").execute()).toEqual([]);
  });

  it("promotes a verified existing user (password unchanged), then is idempotent", async () => {
    const { id } = await signUp("existing@example.com", "existing-pass-1");
    await db().updateTable("user").set({ emailVerified: true }).where("id", "=", id).execute();
    const plain = await signIn("existing@example.com", "existing-pass-1");
    expect((await plain.get("/admin/list-users")).status).toBe(403);

    const promoted = await inProcess(["create-admin", "--email", "existing@example.com"], env());
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('existing@example.com now has the role "user,admin" (password unchanged)');
    const again = await inProcess(["create-admin", "--email", "existing@example.com"], env());
    expect(again.stdout).toContain("already an admin");

    const admin = await signIn("existing@example.com", "existing-pass-1");
    expect((await admin.get("/admin/list-users")).status).toBe(200);
    const audit = await admin.get(`/admin/list-audit-log?targetUserId=${id}`);
    expect(audit.body.entries).toEqual([
      expect.objectContaining({ action: "user.set-role", userAgent: "gatehouse create-admin" }),
    ]);
  });

  it("refuses an account whose address was never verified: the squatter gets no admin role", async () => {
    const squatter = await signUp("squatted@example.com", "squatter-pass-1");
    const run = await inProcess(["create-admin", "--email", "squatted@example.com"], env(), "operator-pass-1");
    expect(run.code).toBe(65);
    expect(run.stderr).toContain("UNVERIFIED_ACCOUNT_EXISTS");
    expect(run.stderr).toContain("--adopt");
    expect((await squatter.browser.get("/admin/list-users")).status).toBe(403);
    const row = await db().selectFrom("user").select("role").where("id", "=", squatter.id).executeTakeFirstOrThrow();
    expect(row.role).toBe("user");
  });

  it("--adopt takes an unverified account over: new password, no credential or session of the squatter left", async () => {
    const squatter = await signUp("adopted@example.com", "squatter-pass-2");
    const now = new Date();
    // What a squatter could have set up and waited with: a passkey, a TOTP secret, a linked provider
    // account, a trusted device, a session.
    await db()
      .insertInto("passkey")
      .values({
        id: "pk-squatter",
        name: "squatter key",
        userId: squatter.id,
        credentialID: "cred-squatter",
        publicKey: "key",
        counter: 0,
        deviceType: "singleDevice",
        backedUp: false,
        transports: null,
        aaguid: null,
        createdAt: now,
      })
      .execute();
    await db()
      .insertInto("twoFactor")
      .values({ userId: squatter.id, secret: "s", backupCodes: "[]", verified: true, createdAt: now, updatedAt: now })
      .execute();
    await db().updateTable("user").set({ twoFactorEnabled: true }).where("id", "=", squatter.id).execute();
    await db()
      .insertInto("account")
      .values({
        id: "acc-squatter",
        accountId: "squatter-sub",
        providerId: "google",
        userId: squatter.id,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        password: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await db()
      .insertInto("verification")
      .values({
        id: "trust-squatter",
        identifier: "trust-device:squatter",
        value: squatter.id,
        expiresAt: new Date(now.getTime() + 86_400_000),
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    expect((await squatter.browser.get("/get-session")).body?.user.id).toBe(squatter.id);

    const noPassword = await inProcess(["create-admin", "--email", "adopted@example.com", "--adopt"], env());
    expect([noPassword.code, noPassword.stderr]).toEqual([65, expect.stringContaining("needs a new password")]);

    const run = await inProcess(
      ["create-admin", "--email", "adopted@example.com", "--adopt"],
      env(),
      "operator-pass-2\n",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('adopted adopted@example.com with the role "user,admin"');

    expect((await squatter.browser.get("/get-session")).body).toBeNull();
    const old = await new TestBrowser(origin).post("/sign-in/email", {
      email: "adopted@example.com",
      password: "squatter-pass-2",
    });
    expect(old.status).toBe(401);
    const left = async (table: "passkey" | "twoFactor" | "session") =>
      (await db().selectFrom(table).select("userId").where("userId", "=", squatter.id).execute()).length;
    expect([await left("passkey"), await left("twoFactor"), await left("session")]).toEqual([0, 0, 0]);
    const accounts = await db().selectFrom("account").select("providerId").where("userId", "=", squatter.id).execute();
    expect(accounts).toEqual([{ providerId: "credential" }]);
    const values = await db().selectFrom("verification").select("id").where("value", "=", squatter.id).execute();
    expect(values).toEqual([]);
    const user = await db()
      .selectFrom("user")
      .select(["emailVerified", "twoFactorEnabled"])
      .where("id", "=", squatter.id)
      .executeTakeFirstOrThrow();
    expect([Boolean(user.emailVerified), Boolean(user.twoFactorEnabled)]).toEqual([true, false]);

    const admin = await signIn("adopted@example.com", "operator-pass-2");
    expect((await admin.get("/admin/list-users")).status).toBe(200);
    const audit = await admin.get(`/admin/list-audit-log?targetUserId=${squatter.id}`);
    expect(audit.body.entries).toEqual([expect.objectContaining({ action: "user.adopt" })]);
  });

  it("refuses a new address without a password, a bad email and a short password, creating nobody", async () => {
    const noPassword = await inProcess(["create-admin", "--email", "new@example.com"], env());
    expect(noPassword.code).toBe(65);
    expect(noPassword.stderr).toContain("give a password to create one");
    const badEmail = await inProcess(["create-admin", "--email", "not-an-email"], env(), "sturdy-pass-123");
    expect([badEmail.code, badEmail.stderr]).toEqual([65, expect.stringContaining("INVALID_EMAIL")]);
    const short = await inProcess(["create-admin", "--email", "new@example.com"], env(), "short");
    expect([short.code, short.stderr]).toEqual([65, expect.stringContaining("PASSWORD_TOO_SHORT")]);
    const missing = await inProcess(["create-admin"], env());
    expect(missing.code).toBe(64);
    const found = await db().selectFrom("user").select("id").where("email", "=", "new@example.com").execute();
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
    expect((await inProcess(["migrate"], { DATABASE_URL: migrated })).code).toBe(0);
    good = {
      DATABASE_URL: migrated,
      AUTH_SECRET: SECRET,
      // Without a Redis here, the good setup goes without one (REDIS_URL is optional).
      ...((await redisUnavailable()) ? {} : { REDIS_URL: TEST_REDIS_URL }),
      SMTP_URL: mail.url,
    };
  });
  afterAll(() => mail.close());

  it("exits 0 on a good setup (a real process)", async () => {
    const run = await gatehouse(["doctor"], good);
    expect(run.stdout).toContain("no problems found");
    expect(run.stdout).not.toContain("PROBLEM");
    expect(run.code).toBe(0);
  });

  it("names each problem in words and exits non-zero", { timeout: 120_000 }, async () => {
    const pendingDatabase = await freshDatabase();
    // An empty SQLite file: it exists, but nothing was migrated (PostgreSQL: a new, empty database).
    if (pendingDatabase.startsWith("sqlite:")) writeFileSync(pendingDatabase.slice("sqlite:".length), "");
    const production = { NODE_ENV: "production", BASE_URL: "https://auth.example.com" };
    const cases: [string, Record<string, string | undefined>, RegExp][] = [
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
      [
        "production without SMTP_URL",
        { ...production, SMTP_URL: undefined },
        /PROBLEM {2}SMTP_URL: not set: with NODE_ENV=production the service refuses to start .*MAIL_DISABLED=1/,
      ],
      [
        "MAIL_DISABLED beside SMTP_URL",
        { MAIL_DISABLED: "1" },
        /PROBLEM {2}MAIL_DISABLED: MAIL_DISABLED and SMTP_URL are both set/,
      ],
      ["invalid AUTH_CONFIG", { AUTH_CONFIG: join(workDir, "missing.json") }, /PROBLEM {2}AUTH_CONFIG: .*cannot read/],
    ];
    // One at a time: the machine has two cores, and each run waits on its own timeouts.
    const runs: Run[] = [];
    for (const [, env] of cases) runs.push(await inProcess(["doctor"], withoutUnset({ ...good, ...env })));
    cases.forEach(([name, env, expected], i) => {
      const run = runs[i] as Run;
      expect(run.stdout, name).toMatch(expected);
      expect(run.stdout, name).toContain("1 problem(s) found");
      expect(run.code, name).toBe(1);
      // Secrets and passwords never reach the output.
      for (const value of Object.values(env)) {
        if (value && /password-42|abcabc/.test(value))
          expect(run.stdout, name).not.toContain(value.match(/[a-z]+-password-42|abcabc\w+/)?.[0]);
      }
      expect(run.stdout).not.toContain(SECRET);
    });
  });

  it("says where mail goes and whether the development outbox is served", async () => {
    const smtp = await inProcess(["doctor"], good);
    expect(smtp.stdout).toContain(`ok       mail: SMTP ${new URL(mail.url).host}; no development outbox is served`);
    const local = await inProcess(["doctor"], withoutUnset({ ...good, SMTP_URL: undefined }));
    expect(local.stdout).toMatch(/warning {2}mail: development outbox, .*served to this machine only/);
    expect(local.code).toBe(0);
  });

  it("refuses a mailed page on an untrusted origin in AUTH_CONFIG", async () => {
    const config = join(workDir, "evil-pages.json");
    writeFileSync(config, JSON.stringify({ pages: { resetPassword: "https://evil.example/reset" } }));
    const run = await inProcess(["doctor"], { ...good, AUTH_CONFIG: config });
    expect(run.stdout).toMatch(/PROBLEM {2}AUTH_CONFIG: .*option "pages\.resetPassword": must be a path on BASE_URL/);
    expect(run.code).toBe(1);
  });

  it("says mail is off with MAIL_DISABLED, as a warning, in production too", async () => {
    const run = await inProcess(
      ["doctor"],
      withoutUnset({
        ...good,
        NODE_ENV: "production",
        BASE_URL: "https://auth.example.com",
        SMTP_URL: undefined,
        MAIL_DISABLED: "1",
      }),
    );
    expect(run.stdout).toMatch(/warning {2}MAIL_DISABLED: mail is off: nobody receives/);
    expect([run.code, run.stdout]).toEqual([0, expect.stringContaining("no problems found")]);
  });

  it("warns of metrics served without a token in production, not with one nor in development", async () => {
    const open = join(workDir, "open-metrics.json");
    writeFileSync(open, JSON.stringify({ metrics: { enabled: true } }));
    const guarded = join(workDir, "guarded-metrics.json");
    writeFileSync(guarded, JSON.stringify({ metrics: { enabled: true, token: "scrape-token-0123456789abcdef" } }));
    const production = { ...good, NODE_ENV: "production", BASE_URL: "https://auth.example.com" };
    const warned = await inProcess(["doctor"], { ...production, AUTH_CONFIG: open });
    expect(warned.stdout).toMatch(
      /warning {2}metrics: metrics\.enabled without metrics\.token: \/metrics is served to anyone/,
    );
    expect([warned.code, warned.stdout]).toEqual([0, expect.stringContaining("no problems found")]);
    const withToken = await inProcess(["doctor"], { ...production, AUTH_CONFIG: guarded });
    expect(withToken.stdout).not.toContain("metrics:");
    expect(withToken.stdout).not.toContain("scrape-token");
    const development = await inProcess(["doctor"], { ...good, AUTH_CONFIG: open });
    expect(development.stdout).not.toMatch(/warning {2}metrics/);
  });
});

/** The environment without the variables a case unsets. */
function withoutUnset(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

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

describe("the app's configuration module (issue 30, item 6)", () => {
  /** Writes a configuration module exporting `body` (JavaScript or TypeScript) and answers its path. */
  function writeModule(path: string, body: string): string {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, body);
    return path;
  }

  it("migrate, create-admin and doctor use the module's database and options (--config, .mjs)", async () => {
    const database = await freshDatabase();
    const config = writeModule(
      join(workDir, "app-one/auth.config.mjs"),
      `export const auth = ${JSON.stringify({
        baseURL: "http://localhost:4000",
        secret: SECRET,
        database,
        options: { admin: { enabled: true, adminRoles: ["superuser"] } },
        mail: { disabled: true },
      })};\n`,
    );
    // The environment names another database: the module's wins.
    const elsewhere = { DATABASE_URL: "sqlite:/nonexistent-folder/never.sqlite" };
    const migrated = await inProcess(["migrate", "--config", config], elsewhere);
    expect([migrated.code, migrated.stdout]).toEqual([0, expect.stringMatching(/applied \d+ migration\(s\)/)]);

    const created = await inProcess(["create-admin", "--email", "boss@example.com", `--config=${config}`], {
      ...elsewhere,
      GATEHOUSE_ADMIN_PASSWORD: "sturdy-pass-123",
    });
    expect([created.code, created.stdout]).toEqual([0, expect.stringContaining('with the role "superuser"')]);

    const checked = await inProcess(["doctor", "--config", config], elsewhere);
    expect(checked.stdout).toContain(`configuration: ${config}`);
    expect(checked.stdout).toMatch(/ok +database: .* answers; migrations up to date/);
    expect([checked.code, checked.stdout]).toEqual([0, expect.stringContaining("no problems found")]);
  });

  it("finds gatehouse.config.ts in the working directory and loads it through tsx", async () => {
    const database = await freshDatabase();
    const folder = join(workDir, "app-ts");
    writeModule(
      join(folder, "gatehouse.config.ts"),
      `const config: { baseURL: string; secret: string; database: string } = ${JSON.stringify({
        baseURL: "http://localhost:4000",
        secret: SECRET,
        database,
      })};\nexport default config;\n`,
    );
    const run = await inProcess(["migrate"], {}, "", folder);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, expect.stringMatching(/applied \d+ migration\(s\)/), ""]);
  });

  it("says every configuration error in words with exit 78: no TypeError, no stack trace", async () => {
    const database = await freshDatabase();
    const noSecret = writeModule(
      join(workDir, "app-no-secret/gatehouse.config.mjs"),
      `export default { baseURL: "http://localhost:4000", database: ${JSON.stringify(database)}, secret: process.env.UNSET_SECRET };\n`,
    );
    const badJson = join(workDir, "bad-options.json");
    writeFileSync(badJson, '{ "emailAndPassword": { enabled: true } }');
    const cases: [string, string[], Record<string, string>, RegExp][] = [
      [
        "a module without a secret",
        ["create-admin", "--email", "a@example.com", "--config", noSecret],
        {},
        /secret \(AUTH_SECRET\) is required/,
      ],
      [
        "bad JSON in AUTH_CONFIG",
        ["create-admin", "--email", "a@example.com"],
        { AUTH_CONFIG: badJson, AUTH_SECRET: SECRET, DATABASE_URL: database },
        /AUTH_CONFIG: ".*bad-options\.json" is not valid JSON/,
      ],
      [
        "no secret in production",
        ["create-admin", "--email", "a@example.com"],
        { NODE_ENV: "production", DATABASE_URL: database },
        /AUTH_SECRET is required when NODE_ENV=production/,
      ],
      [
        "a --config that does not exist",
        ["migrate", "--config", "nowhere.mjs"],
        {},
        /--config: "nowhere\.mjs" does not exist/,
      ],
      [
        "a module that exports nothing usable",
        ["doctor", "--config", writeModule(join(workDir, "app-empty/empty.mjs"), "export const other = 1;\n")],
        {},
        /must export the object createAuth takes/,
      ],
    ];
    for (const [name, args, env, expected] of cases) {
      const run = await inProcess(args, { ...env, GATEHOUSE_ADMIN_PASSWORD: "sturdy-pass-123" });
      expect([run.code, run.stderr], name).toEqual([78, expect.stringMatching(expected)]);
      expect(run.stderr, name).not.toMatch(/TypeError|\n\s+at /);
    }
  });

  it("npm start says a bad AUTH_CONFIG in words with exit 78, without a stack trace (a real process)", async () => {
    const badJson = join(workDir, "bad-start.json");
    writeFileSync(badJson, "{ not json");
    // Bundled as `npm run build:server` does (loading the source through tsx took seconds longer).
    const main = await bundleInto(workDir, "src/main.ts");
    const run = await new Promise<Run>((done) => {
      execFile(
        process.execPath,
        [main],
        { cwd: workDir, env: { PATH: process.env.PATH ?? "", AUTH_CONFIG: badJson, PORT: "0" }, timeout: 30_000 },
        (error, stdout, stderr) => done({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).toMatch(/Gatehouse cannot start:\nAUTH_CONFIG: ".*bad-start\.json" is not valid JSON/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(78);
  });
});
