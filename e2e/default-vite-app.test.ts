import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import react from "@vitejs/plugin-react";
import type { Page } from "playwright-core";
import { build, type Rolldown } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The components in an application as `npm create vite` makes one: Vite's defaults, the components'
 * stylesheet imported, and no color-scheme of the page's own. Vite's build lowers light-dark() into
 * variables that only a color-scheme declaration sets, so the stylesheet must declare its own.
 */
const REPO = resolve(import.meta.dirname, "..");
let root = "";
let appDir = "";
let passwordChunk = "";

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Vite + React</title></head>
  <body><div id="root"></div><script type="module" src="/main.tsx"></script></body>
</html>
`;

const MAIN_TSX = `import { createRoot } from "react-dom/client";
import { createAuthClient } from "gatehouse-auth/client";
import { AuthProvider, MenuButton, SignUp } from "gatehouse-auth/react";
import "gatehouse-auth/react/components.css";

const client = createAuthClient();
createRoot(document.getElementById("root")!).render(
  <AuthProvider client={client}>
    <MenuButton menuLabel="Account" buttonContent="Account" items={[]} testId="menu" />
    <SignUp />
  </AuthProvider>,
);
`;

/** Builds the application with Vite's defaults (plus React's plugin, as its template has) into dist/. */
async function buildDefaultApp(): Promise<void> {
  await mkdir(join(REPO, "dist"), { recursive: true });
  root = await mkdtemp(join(REPO, "dist", "vite-app-"));
  await writeFile(join(root, "index.html"), INDEX_HTML);
  await writeFile(join(root, "main.tsx"), MAIN_TSX);
  const source = (path: string) => join(REPO, "src", path);
  // The package's entries, as its exports map names them, from the sources (components.css is copied as is).
  const alias = [
    { find: /^gatehouse-auth\/react\/components\.css$/, replacement: source("react/components.css") },
    { find: /^gatehouse-auth\/react$/, replacement: source("react/index.ts") },
    { find: /^gatehouse-auth\/client$/, replacement: source("client/index.ts") },
  ];
  // Vitest's NODE_ENV would give React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    const output = (await build({
      root,
      configFile: false,
      logLevel: "warn",
      plugins: [react()],
      resolve: { alias },
      build: { outDir: "dist" },
    })) as Rolldown.RolldownOutput;
    const chunk = output.output.find(
      (file) => file.type === "chunk" && file.moduleIds.some((id) => id.includes("@zxcvbn-ts/language-common")),
    );
    passwordChunk = chunk?.fileName ?? "";
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  appDir = relative(process.cwd(), join(root, "dist"));
}

beforeAll(buildDefaultApp);
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});
const e2e = setUpServiceAndBrowser(() => ({ appDir }));

/** The computed colours a person sees: the email input's, the primary button's and the menu button's. */
function colours(page: Page) {
  return page.evaluate(() => {
    const style = (testId: string) => getComputedStyle(document.querySelector(`[data-testid="${testId}"]`)!);
    const input = style("sign-up-email");
    const menu = style("menu");
    return {
      card: style("gh-sign-up").backgroundColor,
      inputText: input.color,
      inputBackground: input.backgroundColor,
      inputBorder: `${input.borderTopStyle} ${input.borderTopColor}`,
      primary: style("sign-up-submit").backgroundColor,
      menuText: menu.color,
      menuBackground: menu.backgroundColor,
    };
  });
}

describe("the components in a default Vite application", () => {
  let page: Page;
  const requested: string[] = [];

  beforeAll(async () => {
    expect(passwordChunk, "the common-password list is a chunk of its own").not.toBe("");
    const context = await e2e.newContext();
    page = await context.newPage();
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${e2e.service.origin}/`);
    await page.getByTestId("sign-up-email").waitFor();
  });

  it("shows inputs, borders and the primary button in the light scheme", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    expect(await colours(page)).toEqual({
      card: "rgb(255, 255, 255)",
      inputText: "rgb(27, 31, 36)",
      inputBackground: "rgb(255, 255, 255)",
      inputBorder: "solid rgb(138, 146, 158)",
      primary: "rgb(10, 79, 214)",
      menuText: "rgb(27, 31, 36)",
      menuBackground: "rgb(255, 255, 255)",
    });
  });

  it("shows them in the dark scheme", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await colours(page)).toEqual({
      card: "rgb(24, 28, 35)",
      inputText: "rgb(230, 233, 238)",
      inputBackground: "rgb(17, 21, 27)",
      inputBorder: "solid rgb(125, 134, 147)",
      primary: "rgb(138, 180, 255)",
      menuText: "rgb(230, 233, 238)",
      menuBackground: "rgb(24, 28, 35)",
    });
  });

  it("loads the common-password list only once a password is typed", async () => {
    expect(requested.some((path) => path.endsWith(passwordChunk))).toBe(false);
    await page.getByTestId("sign-up-password").fill("a");
    await page.getByTestId("password-strength").waitFor();
    await expect.poll(() => requested.some((path) => path.endsWith(passwordChunk))).toBe(true);
  });
});
