import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rolldown/parseAst";
import { describe, expect, it } from "vitest";

/**
 * Words written straight into JSX bypass the catalogue and stay English in every language. This
 * parses every .tsx file of the application and the exported components and reports:
 * - JSX text with a letter in it (`<p>Saved.</p>`), and
 * - string literals with a letter given to attributes people read or hear (`label="Name"`,
 *   `aria-label`, `title`, `alt`, `placeholder`, and the app's own `submitLabel`/`confirmLabel`).
 * Limits: it does not follow values built elsewhere (a constant, a template string, an object of
 * labels handed in as props, or text set from an event handler); those are reviewed by hand, and
 * the catalogue tests check the German is complete.
 */
const root = fileURLToPath(new URL("../", import.meta.url));
const readAttributes = new Set(["label", "aria-label", "title", "alt", "placeholder", "submitLabel", "confirmLabel"]);
const hasLetter = /\p{L}/u;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith(".tsx") ? [path] : [];
  });
}

/** An ESTree node as the parser gives it (oxc, through rolldown, which Vite already brings). */
interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/** The text of a string literal, or of a template literal without substitutions; else null. */
function stringLiteral(node: Node): string | null {
  if (node.type === "Literal") return typeof node.value === "string" ? node.value : null;
  const quasis = node.quasis as { value: { cooked: string } }[] | undefined;
  return node.type === "TemplateLiteral" && quasis?.length === 1 ? quasis[0]!.value.cooked : null;
}

function untranslatedText(fileName: string, source: string): string[] {
  const found: string[] = [];
  const where = (node: Node) => `${fileName}:${source.slice(0, node.start).split("\n").length}`;
  const visit = (node: Node) => {
    if (node.type === "JSXText" && hasLetter.test(node.value as string))
      found.push(`${where(node)} text ${JSON.stringify((node.value as string).trim())}`);
    if (node.type === "JSXAttribute") {
      const name = node.name as Node;
      const attribute = name.type === "JSXIdentifier" ? (name.name as string) : "";
      const value = node.value as Node | null;
      const literal =
        value?.type === "JSXExpressionContainer" && isNode(value.expression)
          ? stringLiteral(value.expression)
          : value && stringLiteral(value);
      if (readAttributes.has(attribute) && literal && hasLetter.test(literal))
        found.push(`${where(node)} ${attribute}="${literal}"`);
    }
    for (const child of Object.values(node)) {
      if (Array.isArray(child)) child.filter(isNode).forEach(visit);
      else if (isNode(child)) visit(child);
    }
  };
  visit(parseAst(source, { lang: "tsx" }, fileName) as unknown as Node);
  return found;
}

describe("untranslated JSX", () => {
  it("finds words written into JSX (the check itself can fail)", () => {
    const found = untranslatedText(
      "x.tsx",
      `const A = () => <p title="Hi" aria-label={t("a")}>Saved. {t("b")} ·</p>;\nconst B = () => <img alt={\`Logo\`} />;`,
    );
    expect(found).toEqual(['x.tsx:1 title="Hi"', 'x.tsx:1 text "Saved."', 'x.tsx:2 alt="Logo"']);
  });

  it("src/app and src/react show no text outside the catalogue", () => {
    const found = ["app", "react"].flatMap((dir) =>
      tsxFiles(join(root, dir)).flatMap((path) => untranslatedText(relative(root, path), readFileSync(path, "utf8"))),
    );
    expect(found).toEqual([]);
  });
});
