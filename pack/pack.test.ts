import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as a consumer gets it: `npm pack`, the tarball installed into a fresh project outside
 * this repository, every entry point imported, a small consumer type-checked with tsc and run.
 *
 * The install must neither download nor compile a binary: scripts are off, and the one native addon
 * the consumer runs on (better-sqlite3, an optional peer) gets this repository's compiled file, for
 * the very same version and Node. Everything else comes from the npm cache (--prefer-offline), or the
 * registry when the cache lacks it.
 *
 * Under another Node than that file was compiled for (the README's 22 and 24:
 * `npx -y -p node@24 node node_modules/vitest/vitest.mjs run --project package`), the consumer installs
 * pg instead and runs on fresh PostgreSQL databases on TEST_DATABASE_URL.
 */

const run = promisify(execFile);
const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "gatehouse-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// Fixed before any step runs: a step that timed out must not leave a later one running npm in this repository.
const consumer = join(work, "consumer");

function sqliteLoads(): boolean {
  try {
    const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => { close(): void };
    new Database(":memory:").close();
    return true;
  } catch {
    return false;
  }
}
const onSqlite = sqliteLoads();
const postgresUrl = process.env.TEST_DATABASE_URL;
const databases: Record<"consumer" | "cli", string> = { consumer: "sqlite::memory:", cli: "sqlite:./cli.sqlite" };

async function onPostgres(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

beforeAll(async () => {
  if (onSqlite) return;
  if (!postgresUrl) throw new Error("better-sqlite3 is not built for this Node: set TEST_DATABASE_URL to run on PostgreSQL");
  for (const use of ["consumer", "cli"] as const) {
    const name = `gatehouse_pack_${use}_${randomBytes(4).toString("hex")}`;
    await onPostgres(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    databases[use] = url.toString();
  }
});
afterAll(async () => {
  if (onSqlite) return;
  for (const url of Object.values(databases))
    await onPostgres(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
});

const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(join(REPO, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

/** Consumers' declarations are checked under the project's TypeScript and under this one too. */
const TYPESCRIPT_5 = { alias: "typescript5", version: "5.9.3" } as const;
const npm = (args: string[], cwd: string) =>
  run("npm", args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: "false" } });

const CONSUMER = `
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { type Auth, AuthError, createAuth, type OutgoingMail, type SessionWithUser, toNextJsHandler } from "gatehouse-auth";
import { createNodeAuthClient, type InferAdditionalFields } from "gatehouse-auth/client";
import {
  AcceptInvitation,
  AuthProvider,
  CreateOrganization,
  OrganizationList,
  OrganizationProfile,
  SignIn,
  type SignInProps,
  SignUp,
  UserProfile,
  type UserProfileSection,
  useSession,
} from "gatehouse-auth/react";
import { fromNodeHeaders, toNodeHandler } from "gatehouse-auth/node";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let ready: (auth: Auth) => void = () => {};
const authPromise = new Promise<Auth>((resolve) => { ready = resolve; });
const server = createServer(toNodeHandler(authPromise));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseURL = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
const quiet = { info() {}, warn() {}, error(message: string) { console.error(message); } };
// Mail through the app's own function (as with Resend or SES), linking to the app's own reset page.
const mailed: OutgoingMail[] = [];
const database = process.env.CONSUMER_DATABASE_URL ?? "sqlite::memory:";
// The app's own user field (docs/configuration.md, additional fields), typed in the client below.
const options = {
  pages: { resetPassword: "/account/reset" },
  user: { additionalFields: { company: { type: "string", required: false } } },
} as const;
const auth = await createAuth({
  baseURL,
  secret: "a-consumer-secret-of-at-least-32-characters",
  database,
  logger: quiet,
  options,
  mail: { send: async (mail) => void mailed.push(mail), from: "Consumer <auth@consumer.example>" },
  // Hooks given in code (docs/hooks.md): one changes a reply, one the row a sign-up writes.
  hooks: {
    before: ({ path, body }) => {
      if (path === "/sign-up/email" && String((body as { email?: string }).email).endsWith("@blocked.example"))
        throw new AuthError("FORBIDDEN", { message: "This domain may not sign up" });
    },
    after: ({ path, reply }) =>
      path === "/get-session" && reply.json ? { json: { ...(reply.json as object), hooked: true } } : undefined,
  },
  databaseHooks: { user: { create: { before: (user) => ({ data: { name: user.name.toUpperCase() } }) } } },
});
ready(auth);

// From Node: the client sends an Origin and keeps the session cookie between calls.
const client = createNodeAuthClient<InferAdditionalFields<typeof options>>({ baseURL });

const email = "consumer@example.com";
const signUp = await client.signUp.email({ name: "Consumer", email, password: "correct horse battery", company: "Acme" });
if (signUp.error) throw new Error(signUp.error.code);
const blocked = await client.signUp.email({ name: "B", email: "b@blocked.example", password: "correct horse battery" });
const viaClient = await client.getSession();
const cookie = [...client.cookies].map(([name, value]) => \`\${name}=\${value}\`).join("; ");
await client.requestPasswordReset({ email });
await auth.context.mail.flush(); // delivers what the reset queued
const viaApi: SessionWithUser | null = await auth.api.getSession({ headers: fromNodeHeaders({ cookie }) });
// A server-side sign-in hands its session cookie on (returnHeaders), as an app would to the browser.
const signedIn = await auth.api.signInEmail({ body: { email, password: "correct horse battery" }, returnHeaders: true });
const handedOn = signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
const apiSignIn = (await auth.api.getSession({ headers: { cookie: handedOn } }))?.user.email;
const { GET } = toNextJsHandler(auth);
const ok = await GET(new Request(\`\${baseURL}/api/auth/ok\`));

function Probe() {
  const session = useSession();
  return createElement("p", null, session.isPending ? "pending" : "ready");
}
const html = renderToString(createElement(AuthProvider, { client, children: createElement(Probe) }));
// The screen components, in German with an appearance (before the server's options arrive).
const appearance = { theme: "dark", variables: { colorPrimary: "#f4a6d7" } } as const;
const heading = (screen: ReactElement) =>
  renderToString(createElement(AuthProvider, { client, children: screen })).match(/<h1[^>]*>([^<]*)</)?.[1];
const screens = [
  heading(createElement(SignIn, { localization: "de", appearance })),
  heading(createElement(SignUp, { localization: "de", appearance })),
  heading(createElement(CreateOrganization, { localization: "de", appearance })),
  heading(createElement(OrganizationProfile, { localization: "de", appearance, section: "members", navigation: false })),
  heading(createElement(OrganizationList, { localization: "de", appearance })),
  heading(createElement(UserProfile, { localization: "de", appearance, section: "security" satisfies UserProfileSection })),
  heading(createElement(AcceptInvitation, { localization: "de", appearance, invitationId: "from-the-mail" })),
];

// Wrong uses must not compile: if a declaration went missing and a type became any, these
// expectations are unused and tsc fails.
export function typeChecks() {
  // @ts-expect-error headers are required
  void auth.api.getSession({});
  // @ts-expect-error the fields go in body
  void auth.api.signInEmail({ email: "x@example.com", password: "x" });
  // @ts-expect-error the user has no such field
  void viaApi?.user.nope;
  // @ts-expect-error options are typed: rateLimit.enabled is a boolean
  void createAuth({ baseURL, secret: "s", database: "sqlite::memory:", options: { rateLimit: { enabled: "yes" } } });
  // @ts-expect-error hooks are functions
  void createAuth({ baseURL, secret: "s", database: "sqlite::memory:", hooks: { before: "deny" } });
  // @ts-expect-error the components speak English and German
  const french: SignInProps = { localization: "fr" };
  void french;
  // @ts-expect-error UserProfile's sections are named
  void createElement(UserProfile, { section: "billing" });
  // @ts-expect-error AcceptInvitation needs the invitation's id
  void createElement(AcceptInvitation, {});
  // @ts-expect-error sign-up needs a password
  void client.signUp.email({ name: "x", email: "x@example.com" });
  const error: AuthError = new AuthError("UNAUTHORIZED");
  return error.status satisfies number;
}

console.log(JSON.stringify({
  signedUp: signUp.data.user.email,
  hookedName: signUp.data.user.name,
  company: signUp.data.user.company satisfies string | null | undefined,
  blocked: [blocked.error?.status, blocked.error?.code],
  hookedReply: (viaClient.data as Record<string, unknown> | null)?.hooked,
  client: viaClient.data?.user.email,
  api: viaApi?.user.email,
  apiDate: viaApi?.session.expiresAt instanceof Date,
  apiSignIn,
  next: ok.status,
  mail: mailed.map((m) => [m.kind, m.from, m.to, m.text.includes("callbackURL=%2Faccount%2Freset")]),
  css: /--gh-/.test(readFileSync(fileURLToPath(import.meta.resolve("gatehouse-auth/react/components.css")), "utf8")),
  html,
  screens,
}));
server.close();
await auth.close();
`;

describe("the npm package", () => {
  let files: string[] = [];

  it("packs only the built library, its declarations and docs", async () => {
    const { stdout } = await npm(["pack", "--json", "--pack-destination", work], REPO);
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as { filename: string; files: { path: string }[] }[];
    files = packed!.files.map((file) => file.path);
    for (const entry of ["server/index", "server/adapters/node", "client/index", "react/index"]) {
      expect(files).toContain(`dist/lib/${entry}.js`);
      expect(files).toContain(`dist/lib/${entry}.d.ts`);
    }
    expect(files).toContain("dist/lib/react/components.css");
    expect(
      files.filter((path) => !/^(dist\/lib\/|dist\/cli\/(main|chunks\/[^/]+)\.js$|docs\/[^/]+\.md$|README\.md$|LICENSE$|package\.json$)/.test(path)),
    ).toEqual([]);
    expect(files.filter((path) => /\.test\.|\/app\//.test(path))).toEqual([]);

    mkdirSync(join(consumer, "src"), { recursive: true });
    const pinned = (names: string[]) => Object.fromEntries(names.map((name) => [name, installedVersion(name)]));
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({
        name: "gatehouse-consumer",
        private: true,
        type: "module",
        dependencies: {
          "gatehouse-auth": `file:${join(work, packed!.filename)}`,
          ...pinned([onSqlite ? "better-sqlite3" : "pg", "react", "react-dom"]),
        },
        devDependencies: {
          ...pinned(["typescript", "@types/node", "@types/react", "@types/react-dom"]),
          // The last TypeScript written in TypeScript, which many consumers still build with.
          [TYPESCRIPT_5.alias]: `npm:typescript@${TYPESCRIPT_5.version}`,
        },
      }),
    );
  }, 240_000);

  it("installs from the tarball without build-only dependencies or install scripts", async () => {
    await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], consumer);
    if (onSqlite) {
      const addon = "build/Release/better_sqlite3.node";
      mkdirSync(join(consumer, "node_modules/better-sqlite3/build/Release"), { recursive: true });
      copyFileSync(join(REPO, "node_modules/better-sqlite3", addon), join(consumer, "node_modules/better-sqlite3", addon));
    }

    const { stdout } = await npm(["ls", "--all", "--parseable"], consumer);
    const installed = new Set(stdout.split("\n").map((path) => path.split("node_modules/").pop()));
    // pg is not the package's to install; under another Node the consumer chose it (see the top).
    for (const appOnly of ["vite", "react-router", "@tanstack/react-query", "tsx", ...(onSqlite ? ["pg"] : []), "ioredis"]) {
      expect(installed.has(appOnly), appOnly).toBe(false);
    }
    // No install-time telemetry: Swagger UI's package brought @scarf/scarf's postinstall with it.
    expect(installed.has("@scarf/scarf")).toBe(false);
  }, 180_000);

  it("type-checks and runs a consumer of every entry point", async () => {
    writeFileSync(join(consumer, "src/main.ts"), CONSUMER);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023", "DOM", "DOM.Iterable"],
          strict: true,
          // Our declarations are checked too: they must not name an optional peer (pg, ioredis).
          skipLibCheck: false,
          types: ["node"],
          rootDir: "src",
          outDir: "build",
        },
        include: ["src"],
      }),
    );
    await run(join(consumer, "node_modules/.bin/tsc"), ["-p", "."], { cwd: consumer }).catch((error) => {
      throw new Error(`tsc failed:\n${error.stdout}${error.stderr}`);
    });
    const tsc5 = join(consumer, "node_modules", TYPESCRIPT_5.alias, "bin/tsc");
    await run(process.execPath, [tsc5, "--noEmit", "-p", "."], { cwd: consumer }).catch((error) => {
      throw new Error(`tsc ${TYPESCRIPT_5.version} failed:\n${error.stdout}${error.stderr}`);
    });
    const { stdout } = await run(process.execPath, ["build/main.js"], {
      cwd: consumer,
      env: { ...process.env, CONSUMER_DATABASE_URL: databases.consumer },
    });
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({
      signedUp: "consumer@example.com",
      hookedName: "CONSUMER",
      company: "Acme",
      blocked: [403, "FORBIDDEN"],
      hookedReply: true,
      client: "consumer@example.com",
      api: "consumer@example.com",
      apiDate: true,
      apiSignIn: "consumer@example.com",
      next: 200,
      mail: [["reset-password", "Consumer <auth@consumer.example>", "consumer@example.com", true]],
      css: true,
      html: expect.stringMatching(/<p>(pending|ready)<\/p>/),
      screens: [
        "Anmelden",
        "Konto erstellen",
        "Organisation erstellen",
        "Mitglieder",
        "Ihre Organisationen",
        "Konto",
        "Einladung",
      ],
    });
  }, 240_000);

  it("runs the gatehouse command from the package, also under the package's name", async () => {
    const manifest = JSON.parse(readFileSync(join(consumer, "node_modules/gatehouse-auth/package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "gatehouse-auth", license: "MIT" });
    expect(readFileSync(join(consumer, "node_modules/gatehouse-auth/LICENSE"), "utf8")).toMatch(/^MIT License/);
    const usage = await run(join(consumer, "node_modules/.bin/gatehouse-auth"), ["help"], { cwd: consumer });
    expect(usage.stdout).toMatch(/^usage: gatehouse/);
    const gatehouse = join(consumer, "node_modules/.bin/gatehouse");
    const secret = (await run(gatehouse, ["generate-secret"], { cwd: consumer })).stdout.trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const env = { ...process.env, DATABASE_URL: databases.cli, AUTH_SECRET: secret };
    const migrated = await run(gatehouse, ["migrate"], { cwd: consumer, env });
    expect(migrated.stdout).toMatch(/applied \d+ migration/);
    const again = await run(gatehouse, ["migrate"], { cwd: consumer, env });
    expect(again.stdout).toMatch(/already up to date/);
    // The app's configuration module (docs/cli.md): its database, not DATABASE_URL's.
    mkdirSync(join(consumer, "app"), { recursive: true });
    writeFileSync(
      join(consumer, "app/gatehouse.config.mjs"),
      `export default { baseURL: "http://localhost:3000", secret: "${secret}", database: "sqlite:./app.sqlite" };\n`,
    );
    const fromModule = await run(gatehouse, ["migrate", "--config", "app/gatehouse.config.mjs"], { cwd: consumer, env });
    expect(fromModule.stdout).toMatch(/sqlite:\.\/app\.sqlite: applied \d+ migration/);
  }, 60_000);
});
