import { type ChildProcess, spawn } from "node:child_process";
import { Resolver } from "node:dns/promises";
import { createServer } from "node:net";
import { beforeEach } from "vitest";
import { DNSMASQ, unavailable } from "./prerequisites.js";

/**
 * A real DNS server on loopback for tests: Debian's dnsmasq answering only the TXT records given
 * (no upstream, no /etc/hosts). Records are fixed at start, so `setTxtRecords` restarts it on the
 * same port. Point `sso.dnsResolvers` at `server`.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>` */
  server: string;
  setTxtRecords(records: Record<string, string[]>): Promise<void>;
  close(): Promise<void>;
}

/** Why no DNS server can start here (and what to run), or null when one can. */
export function dnsServerUnavailable(): string | null {
  return unavailable("dns");
}

/**
 * Skips every test of the file (or suite) when dnsmasq is missing, saying why; startDnsServer then
 * hands the file's beforeAll a server that answers nothing.
 */
export function skipWithoutDnsServer(): void {
  const reason = dnsServerUnavailable();
  if (!reason) return;
  console.warn(`tests needing a DNS server skipped: ${reason}`);
  beforeEach((context) => context.skip(reason));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startDnsServer(records: Record<string, string[]> = {}): Promise<TestDnsServer> {
  const reason = dnsServerUnavailable();
  if (reason) {
    const refuse = async () => {
      throw new Error(reason);
    };
    return { server: "127.0.0.1:9", setTxtRecords: refuse, close: async () => {} };
  }
  const port = await freePort();
  const server = `127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };

  const start = async (txt: Record<string, string[]>) => {
    await stop();
    const args = [
      "--no-daemon",
      "--conf-file=/dev/null",
      "--pid-file=",
      `--port=${port}`,
      "--listen-address=127.0.0.1",
      "--bind-interfaces",
      "--no-resolv",
      "--no-hosts",
      // Answers are read fresh each time: a restarted server must not be shadowed by a cache.
      "--cache-size=0",
      // A name to wait on, so a test knows the server answers.
      "--txt-record=ready.dns.test,ready",
      // No shell between us and dnsmasq: quotes would be part of the text. A comma would split it in two strings.
      ...Object.entries(txt).flatMap(([name, values]) => values.map((v) => `--txt-record=${name},${v}`)),
    ];
    child = spawn(DNSMASQ, args, { stdio: "ignore" });
    const resolver = new Resolver({ timeout: 200, tries: 1 });
    resolver.setServers([server]);
    for (let attempt = 0; attempt < 50; attempt++) {
      if (child.exitCode !== null) throw new Error(`dnsmasq exited with ${child.exitCode}`);
      try {
        await resolver.resolveTxt("ready.dns.test");
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error("dnsmasq did not answer");
  };

  await start(records);
  return { server, setTxtRecords: start, close: stop };
}
