import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestBrowser } from "./browser.js";
import { bundleInto } from "./bundle.js";
import { TEST_SECRET } from "./server.js";

/** One real service process (src/main.ts bundled as `npm run build:server` does), as a deployment runs it. */
export interface Instance {
  name: string;
  origin: string;
  browser(): TestBrowser;
  /** Everything the process wrote, for a failure message. */
  output(): string;
}

export interface InstancesInput {
  count: number;
  databaseUrl: string;
  redisUrl: string;
  smtpUrl?: string;
  options: Record<string, unknown>;
}

/** A loopback port nothing listens on now (another process may take it before it is used). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Generous: on a loaded machine, three processes starting at once take a while.
const START_TIMEOUT_MS = 60_000;

/**
 * Starts `count` instances at once on one database and one Redis, each on its own loopback port and
 * all trusting each other's origins, like N instances behind a load balancer (BASE_URL is the first).
 */
export async function startInstances(
  input: InstancesInput,
): Promise<{ instances: Instance[]; close(): Promise<void> }> {
  // A port found free can be taken by another process before the instance listens on it: such a
  // start is tried again on new ports (the instances must know each other's origins beforehand).
  for (let attempt = 1; ; attempt++) {
    try {
      return await startInstancesOnce(input);
    } catch (error) {
      if (attempt === 3 || !String(error).includes("EADDRINUSE")) throw error;
    }
  }
}

async function startInstancesOnce(input: InstancesInput): Promise<{ instances: Instance[]; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-instances-"));
  // Bundled before the ports are chosen, so they stay unclaimed for as short a time as can be.
  const main = await bundleInto(dir, "src/main.ts");
  const ports = await Promise.all(Array.from({ length: input.count }, freePort));
  const origins = ports.map((port) => `http://127.0.0.1:${port}`);
  const configPath = join(dir, "auth.json");
  writeFileSync(configPath, JSON.stringify({ ...input.options, trustedOrigins: origins }));
  const children: ChildProcess[] = [];
  const started = ports.map(async (port, index) => {
    const name = String.fromCharCode(65 + index);
    const started = spawnService(name, [main], {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: origins[0]!,
      AUTH_SECRET: TEST_SECRET,
      AUTH_CONFIG: configPath,
      DATABASE_URL: input.databaseUrl,
      REDIS_URL: input.redisUrl,
      // Production refuses to start without a mail destination: no SMTP server means mail is off.
      ...(input.smtpUrl ? { SMTP_URL: input.smtpUrl } : { MAIL_DISABLED: "1" }),
    });
    children.push(started.child);
    await started.listening;
    const instance: Instance = {
      name,
      origin: origins[index]!,
      browser: () => new TestBrowser(origins[index]!),
      output: started.output,
    };
    return instance;
  });
  const close = async () => {
    await stopProcesses(children);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return { instances: await Promise.all(started), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A service process that is starting: `listening` resolves once it says so, and rejects if it exits first. */
export interface StartingService {
  child: ChildProcess;
  listening: Promise<void>;
  /** Everything the process wrote, for a failure message. */
  output(): string;
}

/**
 * Spawns `node <args>`, or `command` with args when given (the image's entrypoint script), with
 * `env` over this process's environment, and watches its output for "Gatehouse listening".
 */
export function spawnService(
  name: string,
  args: string[],
  env: Record<string, string>,
  command: string = process.execPath,
): StartingService {
  let output = "";
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start:\n${output}`)), START_TIMEOUT_MS);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Gatehouse listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited with ${code}:\n${output}`));
    });
  });
  return { child, listening, output: () => output };
}

/** SIGTERM, then SIGKILL after 5 s for a process that does not stop. */
export async function stopProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 5000).unref();
        }),
    ),
  );
}
