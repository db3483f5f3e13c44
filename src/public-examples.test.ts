import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Every function the package's entry points export (package.json `exports`) shows its use in an
 * `@example` in the JSDoc right above its definition, so an editor's hover says how to call it.
 * Types and constants are exempt; classes are named in their own list, not checked.
 */
const SRC = dirname(fileURLToPath(import.meta.url));
const ENTRIES = ["server/index.ts", "client/index.ts", "react/index.ts", "server/adapters/node.ts"];

interface Definition {
  file: string;
  name: string;
  kind: "function" | "class" | "value";
  /** The JSDoc block right above the definition (comment lines such as biome-ignore may sit between). */
  doc: string | null;
}

const texts = new Map<string, string>();
function text(file: string): string {
  let content = texts.get(file);
  if (content === undefined) {
    content = readFileSync(file, "utf8");
    texts.set(file, content);
  }
  return content;
}

function resolveModule(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ""));
  const found = [`${base}.ts`, `${base}.tsx`, resolve(base, "index.ts")].find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${relative(SRC, from)}: cannot resolve ${specifier}`);
  return found;
}

/** `a, type B, c as d` to [[local, exported]] of the values only. */
function valueSpecifiers(list: string): [string, string][] {
  return list
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "" && !part.startsWith("type "))
    .map((part) => {
      const [local = "", exported = local] = part.split(/\s+as\s+/);
      return [local.trim(), exported.trim()];
    });
}

/** The exported value names of a module, each with the definition it comes from. */
function exportedValues(file: string): Map<string, Definition> {
  const source = text(file);
  const found = new Map<string, Definition>();
  for (const match of source.matchAll(/^export\s+\{([^}]*)\}\s*from\s*"([^"]+)"/gm)) {
    const target = resolveModule(file, match[2] ?? "");
    for (const [local, exported] of valueSpecifiers(match[1] ?? "")) found.set(exported, definitionOf(target, local));
  }
  for (const match of source.matchAll(/^export\s+\*\s+from\s*"([^"]+)"/gm)) {
    for (const [name, definition] of exportedValues(resolveModule(file, match[1] ?? ""))) found.set(name, definition);
  }
  for (const match of source.matchAll(/^export\s+\{([^}]*)\}\s*;/gm)) {
    for (const [local, exported] of valueSpecifiers(match[1] ?? "")) found.set(exported, definitionOf(file, local));
  }
  for (const match of source.matchAll(
    /^export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm,
  )) {
    const name = match[1] ?? "";
    found.set(name, definitionOf(file, name));
  }
  return found;
}

/** Where `name` is defined, following re-exports; what it is; the JSDoc above it. */
function definitionOf(file: string, name: string): Definition {
  const source = text(file);
  const declaration = new RegExp(
    `^(?:export\\s+)?(?:declare\\s+)?(?:async\\s+)?(function\\*?|const|let|class|abstract\\s+class)\\s+${name.replace(/\$/g, "\\$")}\\b`,
    "m",
  ).exec(source);
  if (declaration) {
    const keyword = declaration[1] ?? "";
    // What is assigned, past a type annotation (whose `=>` has no space after its `=`), even on the next line.
    const rest = source.slice(declaration.index + declaration[0].length, declaration.index + 600);
    const assignment = rest.search(/\s=\s/);
    const initializer = assignment === -1 ? "" : rest.slice(assignment);
    const kind = keyword.startsWith("function")
      ? "function"
      : keyword.endsWith("class")
        ? "class"
        : /^\s*=\s*(?:async\s+)?(?:<[^>]*>\s*)?(?:\(|[A-Za-z_$][\w$]*\s*=>|function\b|(?:React\.)?(?:memo|forwardRef)\s*\()/.test(
              initializer,
            )
          ? "function"
          : "value";
    return { file, name, kind, doc: docAbove(source, declaration.index) };
  }
  for (const match of source.matchAll(/^export\s+\{([^}]*)\}\s*from\s*"([^"]+)"/gm)) {
    const specifier = valueSpecifiers(match[1] ?? "").find(([, exported]) => exported === name);
    if (specifier) return definitionOf(resolveModule(file, match[2] ?? ""), specifier[0]);
  }
  for (const match of source.matchAll(/^export\s+\*\s+from\s*"([^"]+)"/gm)) {
    const target = resolveModule(file, match[1] ?? "");
    if (exportedValues(target).has(name)) return definitionOf(target, name);
  }
  throw new Error(`${relative(SRC, file)}: no definition of ${name}`);
}

/** The `/** ... *\/` block ending on the line above `index`, past `//` comment lines; null when there is none. */
function docAbove(source: string, index: number): string | null {
  const lines = source.slice(0, index).split("\n");
  lines.pop(); // the declaration's own line, up to the declaration
  while (lines.length > 0 && /^\s*\/\//.test(lines.at(-1) ?? "")) lines.pop();
  if (!/\*\/\s*$/.test(lines.at(-1) ?? "")) return null;
  const block: string[] = [];
  while (lines.length > 0) {
    const line = lines.pop() ?? "";
    block.unshift(line);
    if (/^\s*\/\*\*/.test(line)) return block.join("\n");
  }
  return null;
}

const exported = ENTRIES.flatMap((entry) =>
  [...exportedValues(resolve(SRC, entry))].map(([name, definition]) => ({ entry, name, definition })),
);
const functions = exported.filter(({ definition }) => definition.kind === "function");

describe("the public entry points' functions", () => {
  it("are found where the package exports them", () => {
    const names = functions.map(({ name }) => name);
    for (const name of ["createAuth", "createAuthClient", "toNodeHandler", "useSession", "SignIn", "openDatabase"]) {
      expect(names).toContain(name);
    }
  });

  it("each have an @example in the JSDoc above their definition", () => {
    const missing = functions
      .filter(({ definition }) => !/^\s*\*\s*@example\b/m.test(definition.doc ?? ""))
      .map(({ entry, name, definition }) => `${name} (${entry}, defined in ${relative(SRC, definition.file)})`);
    expect(missing).toEqual([]);
  });
});
