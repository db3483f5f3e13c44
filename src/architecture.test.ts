import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The layering DESIGN.md describes, checked on the source itself: who may import whom, and no import
 * circle. Type-only imports count for both: a type that runs back up is a layer that does not hold,
 * and a circle of types is still two modules that cannot be read or moved apart.
 */
const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative imports of a file, type-only ones too, resolved to files under src/. */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)) {
    const base = resolve(dirname(file), (match[2] ?? "").replace(/\.js$/, ""));
    const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => known.has(candidate));
    if (target) found.push(target);
  }
  return found;
}

const files = sourceFiles(SRC);
const known = new Set(files);
const withTypes = new Map(files.map((file) => [file, importsOf(file, known)]));
/**
 * A feature that spans the layers and is read as a whole (as Kratos keeps one) lives in one folder,
 * server/<feature>/, its parts each in its layer by name: `x.store.ts` is store, `x.service.ts`
 * services, `x.http.ts` http, `x.routes.ts` routes; any other file in it is a helper below them all,
 * which imports none of them (as crypto/). Each is checked as if it sat in its layer's folder.
 */
const FEATURE_FOLDERS = ["server/audit/", "server/scim/", "server/sso/"];
const LAYER_OF_SUFFIX: Record<string, string> = {
  store: "server/store/",
  service: "server/services/",
  http: "server/http/",
  routes: "server/routes/",
};
function layered(path: string): string {
  const folder = FEATURE_FOLDERS.find((prefix) => path.startsWith(prefix));
  const suffix = path.match(/\.(store|service|http|routes)\.tsx?$/)?.[1];
  return folder && suffix ? `${LAYER_OF_SUFFIX[suffix]}${path}` : path;
}
const rel = (file: string) => layered(relative(SRC, file));

/**
 * What the command line may import from the store: opening and migrating a database with its
 * additional columns (as server/auth.ts does at start) and the importer's statements. Everything
 * else goes through the services the routes use, so a command changes data the way a request would.
 */
const CLI_STORE_SEAMS = ["server/store/database.ts", "server/store/additional-fields.ts", "server/store/imports.ts"];

describe("the source's layers", () => {
  it("has no import circle, type-only imports included", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const next of withTypes.get(file) ?? []) {
        if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].map(rel).join(" -> "));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it.each([
    ["contract/", ["server/", "client/", "app/", "react/"]],
    ["client/", ["server/", "app/", "react/"]],
    ["server/store/", ["server/services/", "server/http/", "server/routes/"]],
    ["server/services/", ["server/http/", "server/routes/"]],
    ["server/http/", ["server/routes/", "server/store/"]],
    ["server/routes/", ["server/store/"]],
    ["server/context.ts", ["server/services/", "server/http/", "server/routes/"]],
    ["server/options.ts", ["server/webhooks/"]],
    // A feature folder's helpers (its other files: see layered).
    ...FEATURE_FOLDERS.map((folder): [string, string[]] => [
      folder,
      ["server/store/", "server/services/", "server/http/", "server/routes/"],
    ]),
  ])("%s imports nothing from %j", (floor, above) => {
    const breaches = [...withTypes]
      .filter(([file]) => rel(file).startsWith(floor))
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => above.some((up) => rel(target).startsWith(up)))
          .map((t) => `${rel(file)} -> ${rel(t)}`),
      );
    expect(breaches).toEqual([]);
  });

  it.each(FEATURE_FOLDERS)("places every file of %s in a layer by its name", (folder) => {
    const placed = files.map((file) => relative(SRC, file)).filter((path) => path.startsWith(folder));
    const byLayer = new Set(
      placed.map((path) => Object.values(LAYER_OF_SUFFIX).find((layer) => layered(path).startsWith(layer)) ?? "helper"),
    );
    // Each feature has a part in every layer but http's, so each rule above is exercised on it.
    for (const layer of ["server/store/", "server/services/", "server/routes/"]) expect(byLayer).toContain(layer);
  });

  it("lets the command line reach the store only through the seams the server uses", () => {
    const breaches = [...withTypes]
      .filter(([file]) => rel(file).startsWith("cli/"))
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => rel(target).startsWith("server/store/") && !CLI_STORE_SEAMS.includes(rel(target)))
          .map((t) => `${rel(file)} -> ${rel(t)}`),
      );
    expect(breaches).toEqual([]);
  });

  it("reaches the read machinery only through store/reads/index.ts", () => {
    const reads = "server/store/reads/";
    const breaches = [...withTypes]
      .filter(([file]) => !rel(file).startsWith(reads))
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => rel(target).startsWith(reads) && rel(target) !== `${reads}index.ts`)
          .map((target) => `${rel(file)} -> ${rel(target)}`),
      );
    expect(breaches).toEqual([]);
  });
});

describe("the caller", () => {
  // Services that more than one kind of caller reaches take `caller: Caller` (services/caller.ts);
  // a union of its own is a second shape of "who" to keep in step.
  it("has one shape: no service spells its own union of callers", () => {
    const unions = files
      .filter((file) => relative(SRC, file) !== "server/services/caller.ts")
      .filter((file) => /\|\s*SetupLinkCaller\b|\bSetupLinkCaller\s*\|/.test(readFileSync(file, "utf8")))
      .map((file) => relative(SRC, file));
    expect(unions).toEqual([]);
  });
});

describe("the audit trail's one writer", () => {
  // Every entry is inserted by audit/entry.store.ts (writeAuditEntry); a second writer would be a
  // second column list to keep in step. Migrations move existing rows and are not writers.
  const WRITER = "server/audit/entry.store.ts";
  const inserts = /insert\s+into\s+\\?"auditTrail\\?"|insertInto\(\s*"auditTrail"/i;

  it("is the only source that inserts into auditTrail", () => {
    const writers = files
      .map((file) => relative(SRC, file))
      .filter((path) => !path.startsWith("server/store/migrations/"))
      .filter((path) => inserts.test(readFileSync(join(SRC, path), "utf8")));
    expect(writers).toEqual([WRITER]);
  });

  it("is reached from the audit feature, and the statement rewriter that runs its merged entries", () => {
    const importers = [...withTypes]
      .filter(([, imports]) => imports.some((target) => relative(SRC, target) === WRITER))
      .map(([file]) => relative(SRC, file))
      .filter((path) => !path.startsWith("server/audit/"));
    expect(importers).toEqual(["server/store/database.ts"]);
  });
});

describe("the service's start", () => {
  // Each costs memory once imported, which an instance that never sends mail over SMTP, checks
  // passwords against the common list, talks to Redis, sees a passkey, an authenticator app, a social
  // provider or a SAML connection or fetches from another server does without: they are
  // loaded on first use (import() or createRequire).
  const loadedOnFirstUse = [
    "@simplewebauthn/server",
    "nodemailer",
    "@zxcvbn-ts/language-common",
    "ioredis",
    "@node-saml/node-saml",
    "undici",
    "otpauth",
    "ipaddr.js",
    "oauth4webapi",
  ];

  it.each(loadedOnFirstUse)("imports %s only when first used", (name) => {
    const prefix = new RegExp(`^(?:import|export)\\s+(type\\s+)?[^;]*?from\\s+"${name}(?:/[^"]*)?"`, "gm");
    const static_ = files.filter((file) => [...readFileSync(file, "utf8").matchAll(prefix)].some((match) => !match[1]));
    expect(static_.map(rel)).toEqual([]);
  });
});
