import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * The programs the tests run that npm does not bring: Debian's, installed by `npm test`
 * (scripts/test-prerequisites.ts) where it may, and checked here by the tests that need them. Each
 * path can be pointed elsewhere by its environment variable.
 */
export interface Prerequisite {
  /** Which tests need it. */
  neededBy: string;
  /** The Debian packages that bring it. */
  packages: string[];
  /** What is missing, or null when it is all here. */
  missing(): string | null;
}

/**
 * Debian's headless shell of chromium, never a downloaded browser: the same engine without the full
 * browser's window machinery, which cost the full build two and a half times the CPU per test file
 * (bench/README.md, "the browser tests on chromium's headless shell").
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
export const DNSMASQ = process.env.DNSMASQ ?? "/usr/sbin/dnsmasq";
export const XMLSEC1 = process.env.XMLSEC1 ?? "/usr/bin/xmlsec1";
export const SAML_PYTHON = process.env.SAML_PYTHON ?? "/usr/bin/python3";
export const HAPROXY = process.env.HAPROXY ?? "/usr/sbin/haproxy";
export const OPENSSL = process.env.OPENSSL ?? "/usr/bin/openssl";

const file = (path: string) => (existsSync(path) ? null : `${path} is missing`);

export const PREREQUISITES = {
  browser: {
    neededBy: "the browser tests (e2e/)",
    packages: ["chromium-headless-shell"],
    missing: () => file(CHROMIUM),
  },
  dns: {
    neededBy: "the SSO domain-verification tests",
    // The program alone: the dnsmasq package would also start a DNS service on the machine.
    packages: ["dnsmasq-base"],
    missing: () => file(DNSMASQ),
  },
  saml: {
    neededBy: "the SAML SSO tests",
    packages: ["python3-pysaml2", "xmlsec1"],
    missing: () =>
      file(SAML_PYTHON) ??
      file(XMLSEC1) ??
      (spawnSync(SAML_PYTHON, ["-c", "import saml2"], { stdio: "ignore" }).status === 0
        ? null
        : `pysaml2 is missing from ${SAML_PYTHON}`),
  },
  proxy: {
    neededBy: "the deployment test (two instances behind a TLS-terminating proxy)",
    // Only the program is used: the test runs deploy/haproxy.cfg itself, not the package's service.
    packages: ["haproxy", "openssl"],
    missing: () => file(HAPROXY) ?? file(OPENSSL),
  },
} satisfies Record<string, Prerequisite>;

export type PrerequisiteName = keyof typeof PREREQUISITES;

/** The command that brings what is missing. */
export function installCommand(packages: string[]): string {
  return `sudo apt-get install -y ${packages.join(" ")}`;
}

/** Why the tests needing `name` cannot run here (and what to run), or null when they can. */
export function unavailable(name: PrerequisiteName): string | null {
  const prerequisite: Prerequisite = PREREQUISITES[name];
  const missing = prerequisite.missing();
  return missing && `${missing}: ${installCommand(prerequisite.packages)} (or run \`npm test\` as root)`;
}
