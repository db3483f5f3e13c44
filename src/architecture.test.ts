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
const rel = (file: string) => relative(SRC, file);

/**
 * A feature that spans the layers (as Kratos keeps one) lives in one folder, server/<feature>/, and
 * each file there says its layer by name: `routes.ts` or `*.routes.ts`, `*.http.ts`, `*.store.ts`;
 * the rest are services. The layer rules below hold inside those folders as they do between the
 * layer folders.
 */
const FEATURES = ["scim", "sso"];
type Layer = "routes" | "http" | "services" | "store";
function layerOf(file: string): Layer | undefined {
  const path = rel(file);
  for (const layer of ["routes", "http", "services", "store"] as const) {
    if (path.startsWith(`server/${layer}/`)) return layer;
  }
  const feature = FEATURES.find((f) => path.startsWith(`server/${f}/`));
  if (!feature) return undefined;
  const name = path.slice(`server/${feature}/`.length);
  if (name === "routes.ts" || name.endsWith(".routes.ts")) return "routes";
  if (name.endsWith(".http.ts")) return "http";
  if (name.endsWith(".store.ts")) return "store";
  return "services";
}

/**
 * What the command line may import from the store: opening and migrating a database with its
 * additional columns (as server/auth.ts does at start) and the importer's writes. Everything else goes through the services the
 * routes use, so a command changes data the way a request would.
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
    [
      "server/context.ts",
      ["server/services/", "server/http/", "server/routes/", ...FEATURES.map((f) => `server/${f}/`)],
    ],
    ["server/options.ts", ["server/webhooks/"]],
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

  it.each([
    ["store", ["services", "http", "routes"]],
    ["services", ["http", "routes"]],
    ["http", ["routes", "store"]],
    ["routes", ["store"]],
  ] as const)("the %s layer, in its folder or a feature folder, imports nothing from %j", (layer, above) => {
    const breaches = [...withTypes]
      .filter(([file]) => layerOf(file) === layer)
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => (above as readonly string[]).includes(layerOf(target) ?? ""))
          .map((t) => `${rel(file)} -> ${rel(t)}`),
      );
    expect(breaches).toEqual([]);
  });

  it("knows every feature folder's files by layer", () => {
    const layered = files.filter((file) => FEATURES.some((f) => rel(file).startsWith(`server/${f}/`)));
    expect(layered.length).toBeGreaterThan(20);
    expect(layered.filter((file) => layerOf(file) === "routes").map(rel)).toContain("server/sso/routes.ts");
    expect(layered.filter((file) => layerOf(file) === "store").map(rel)).toContain("server/scim/groups.store.ts");
  });

  it("lets the command line reach store/ only through the seams the server uses", () => {
    const breaches = [...withTypes]
      .filter(([file]) => rel(file).startsWith("cli/"))
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => layerOf(target) === "store" && !CLI_STORE_SEAMS.includes(rel(target)))
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
