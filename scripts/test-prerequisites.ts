/**
 * Run by `npm test` before vitest: installs the Debian packages the tests need and npm does not
 * bring (test/helpers/prerequisites.ts), when one is missing and this may install (root, or
 * passwordless sudo, and apt-get). Otherwise it says which tests will be skipped, why, and what to run.
 * GATEHOUSE_TEST_INSTALL=0 never installs; APT_GET names another apt-get. Under CI (CI=true), what
 * is still missing fails the run: CI runs every test.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { PREREQUISITES, type Prerequisite, unavailable } from "../test/helpers/prerequisites.js";

const APT_GET = process.env.APT_GET ?? "/usr/bin/apt-get";

/** The command prefix that runs apt-get as root, or why none can. */
function asRoot(): { prefix: string[] } | { refused: string } {
  if (process.env.GATEHOUSE_TEST_INSTALL === "0") return { refused: "GATEHOUSE_TEST_INSTALL=0" };
  if (!existsSync(APT_GET)) return { refused: `no ${APT_GET}` };
  if (process.getuid?.() === 0) return { prefix: [] };
  if (spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0) return { prefix: ["sudo", "-n"] };
  return { refused: "not root and no passwordless sudo" };
}

/** Runs apt-get; its output is shown only when it fails. */
function aptGet(prefix: string[], args: string[]): boolean {
  // Through env: sudo would drop DEBIAN_FRONTEND from this process's environment.
  const [command, ...rest] = [...prefix, "env", "DEBIAN_FRONTEND=noninteractive", APT_GET, ...args];
  const run = spawnSync(command as string, rest, { encoding: "utf8" });
  if (run.status === 0) return true;
  process.stdout.write(`${run.stdout ?? ""}${run.stderr ?? ""}`);
  console.log(`npm test: apt-get ${args.join(" ")} failed (${run.error?.message ?? `exit ${run.status}`})`);
  return false;
}

const names = Object.keys(PREREQUISITES) as (keyof typeof PREREQUISITES)[];
const missing = names.filter((name) => PREREQUISITES[name].missing() !== null);
if (missing.length > 0) {
  const root = asRoot();
  const wanted: Prerequisite[] = missing.map((name) => PREREQUISITES[name]);
  if ("prefix" in root) {
    const packages = [...new Set(wanted.flatMap((p) => p.packages))];
    console.log(
      `npm test: installing ${packages.join(" ")} with apt-get, for ${wanted.map((p) => p.neededBy).join(", ")}`,
    );
    if (aptGet(root.prefix, ["update", "-qq"])) aptGet(root.prefix, ["install", "-y", "-qq", ...packages]);
  } else {
    console.log(`npm test: installs nothing (${root.refused})`);
  }
  const still = missing.filter((name) => unavailable(name) !== null);
  for (const name of still) {
    console.log(`npm test: ${PREREQUISITES[name].neededBy} will be skipped: ${unavailable(name)}`);
  }
  if (still.length > 0 && process.env.CI === "true") {
    console.log("npm test: CI=true, where every test runs: stopping");
    process.exit(1);
  }
}
