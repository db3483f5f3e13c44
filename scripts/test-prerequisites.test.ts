import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = new URL("./test-prerequisites.ts", import.meta.url).pathname;
const TSX = new URL("../node_modules/.bin/tsx", import.meta.url).pathname;

describe("npm test's prerequisites", () => {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-prerequisites-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // An apt-get that records what it was asked and installs nothing.
  const aptLog = join(dir, "apt-get.log");
  const aptGet = join(dir, "apt-get");
  writeFileSync(aptGet, `#!/bin/sh\necho "$@" >> ${aptLog}\n`);
  chmodSync(aptGet, 0o755);
  // Everything present (any executable stands in; /bin/true "imports saml2"), but the browser.
  const present = {
    DNSMASQ: process.execPath,
    XMLSEC1: process.execPath,
    SAML_PYTHON: "/bin/true",
    HAPROXY: process.execPath,
    OPENSSL: process.execPath,
    APT_GET: aptGet,
  };
  const run = (env: Record<string, string>) => {
    rmSync(aptLog, { force: true });
    const stdout = execFileSync(TSX, [SCRIPT], {
      env: { ...process.env, CI: "", ...present, ...env },
      encoding: "utf8",
    });
    return { stdout, apt: existsSync(aptLog) ? readFileSync(aptLog, "utf8") : "" };
  };

  it("says nothing and installs nothing when everything is here", () => {
    expect(run({ CHROMIUM_PATH: process.execPath })).toEqual({ stdout: "", apt: "" });
  });

  it.skipIf(process.getuid?.() !== 0)("as root, installs what is missing, saying so in one line", () => {
    const { stdout, apt } = run({ CHROMIUM_PATH: join(dir, "no-chromium") });
    expect(apt).toBe("update -qq\ninstall -y -qq chromium-headless-shell\n");
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("npm test: installing chromium-headless-shell with apt-get, for the browser tests (e2e/)");
    // This apt-get installed nothing: the browser tests will say why they skip.
    expect(lines[1]).toBe(
      `npm test: the browser tests (e2e/) will be skipped: ${join(dir, "no-chromium")} is missing: ` +
        "sudo apt-get install -y chromium-headless-shell (or run `npm test` as root)",
    );
  });

  it("under CI, fails when something is still missing", () => {
    const failed = (() => {
      try {
        run({ CHROMIUM_PATH: join(dir, "no-chromium"), GATEHOUSE_TEST_INSTALL: "0", CI: "true" });
      } catch (error) {
        return error as { status: number; stdout: string };
      }
    })();
    expect(failed?.status).toBe(1);
    expect(failed?.stdout).toMatch(/CI=true, where every test runs: stopping\n$/);
  });

  it("when it may not install, installs nothing and says what to run", () => {
    const { stdout, apt } = run({ CHROMIUM_PATH: join(dir, "no-chromium"), GATEHOUSE_TEST_INSTALL: "0" });
    expect(apt).toBe("");
    expect(stdout).toBe(
      "npm test: installs nothing (GATEHOUSE_TEST_INSTALL=0)\n" +
        `npm test: the browser tests (e2e/) will be skipped: ${join(dir, "no-chromium")} is missing: ` +
        "sudo apt-get install -y chromium-headless-shell (or run `npm test` as root)\n",
    );
  });
});
