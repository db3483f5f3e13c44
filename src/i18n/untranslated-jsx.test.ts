import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
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

function untranslatedText(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasLetter.test(node.text))
      found.push(`${where(node)} text ${JSON.stringify(node.text.trim())}`);
    if (ts.isJsxAttribute(node) && readAttributes.has(node.name.getText())) {
      const value = node.initializer;
      const literal =
        value && ts.isStringLiteral(value)
          ? value
          : value && ts.isJsxExpression(value) && value.expression && ts.isStringLiteralLike(value.expression)
            ? value.expression
            : null;
      if (literal && hasLetter.test(literal.text))
        found.push(`${where(node)} ${node.name.getText()}="${literal.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("untranslated JSX", () => {
  it("finds words written into JSX (the check itself can fail)", () => {
    const found = untranslatedText("x.tsx", `const A = () => <p title="Hi" aria-label={t("a")}>Saved. {t("b")} ·</p>;`);
    expect(found).toEqual(['x.tsx:1 title="Hi"', 'x.tsx:1 text "Saved."']);
  });

  it("src/app and src/react show no text outside the catalogue", () => {
    const found = ["app", "react"].flatMap((dir) =>
      tsxFiles(join(root, dir)).flatMap((path) => untranslatedText(relative(root, path), readFileSync(path, "utf8"))),
    );
    expect(found).toEqual([]);
  });
});
