import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { stopProcesses } from "./instances.js";
import { HAPROXY, OPENSSL } from "./prerequisites.js";

/** The proxy configuration compose.yaml runs, run here as it is. */
export const HAPROXY_CONFIG = resolve(import.meta.dirname, "../../deploy/haproxy.cfg");

/** A self-signed certificate for localhost and 127.0.0.1, valid a day: haproxy's PEM and the CA a client trusts. */
export function throwawayCertificate(dir: string): { pemPath: string; certificate: string } {
  const key = join(dir, "tls.key");
  const cert = join(dir, "tls.crt");
  execFileSync(
    OPENSSL,
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
      ...["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ...["-keyout", key, "-out", cert],
    ],
    { stdio: "ignore" },
  );
  const certificate = readFileSync(cert, "utf8");
  const pemPath = join(dir, "tls.pem");
  writeFileSync(pemPath, certificate + readFileSync(key, "utf8"), { mode: 0o600 });
  return { pemPath, certificate };
}

/** A fetch that trusts `certificate` (and nothing else), for a TestBrowser behind the proxy. */
export function fetchTrusting(certificate: string): { fetch: typeof fetch; close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { ca: certificate } });
  const send = (url: string | URL | Request, init?: RequestInit) =>
    undiciFetch(url as string, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
  return { fetch: send as typeof fetch, close: () => dispatcher.close() };
}

export interface TlsProxy {
  origin: string;
  /** One command to haproxy's runtime API (`set server gatehouse/a state drain`); its answer. */
  admin(command: string): Promise<string>;
  /** The servers' states as haproxy's health checks see them: name -> UP, DOWN, DRAIN, ... */
  serverStates(): Promise<Record<string, string>>;
  /** Requests each server has been sent (health checks not counted): name -> count. */
  served(): Promise<Record<string, number>>;
  output(): string;
  close(): Promise<void>;
}

export interface TlsProxyInput {
  dir: string;
  port: number;
  pemPath: string;
  /** Server name in the config ("a", "b") -> host:port. */
  servers: { a: string; b: string };
}

/** Starts haproxy on deploy/haproxy.cfg, in the foreground, with the addresses in its environment. */
export async function startProxy(input: TlsProxyInput): Promise<TlsProxy> {
  const socketPath = join(input.dir, "haproxy-admin.sock");
  let output = "";
  const child: ChildProcess = spawn(HAPROXY, ["-db", "-f", HAPROXY_CONFIG], {
    env: {
      PATH: process.env.PATH,
      HAPROXY_BIND: `127.0.0.1:${input.port}`,
      HAPROXY_CERT: input.pemPath,
      HAPROXY_ADMIN_SOCKET: socketPath,
      GATEHOUSE_A: input.servers.a,
      GATEHOUSE_B: input.servers.b,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const admin = (command: string) =>
    new Promise<string>((resolve, reject) => {
      let answer = "";
      const socket = connect(socketPath, () => socket.end(`${command}\n`));
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.once("error", reject);
      socket.once("close", () => resolve(answer));
    });
  /** One column of `show stat` for each server of the gatehouse backend. */
  const serverColumn = async (column: string) => {
    const [header = "", ...rows] = (await admin("show stat")).trim().split("\n");
    const columns = header.replace(/^# /, "").split(",");
    const [proxyName, serverName, wanted] = ["pxname", "svname", column].map((c) => columns.indexOf(c));
    const values: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(",");
      if (cells[proxyName!] === "gatehouse" && !["BACKEND", "FRONTEND"].includes(cells[serverName!]!)) {
        values[cells[serverName!]!] = cells[wanted!]!;
      }
    }
    return values;
  };
  // Up once its runtime API answers; an exit before that (a port taken meanwhile) is said with its output.
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`haproxy exited with ${code}:\n${output}`))),
  );
  exited.catch(() => {});
  const started = Date.now();
  for (;;) {
    const up = await Promise.race([
      admin("show info").then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (up) break;
    if (Date.now() - started > 10_000) {
      await stopProcesses([child]);
      throw new Error(`haproxy did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin: `https://localhost:${input.port}`,
    admin,
    serverStates: () => serverColumn("status"),
    served: async () =>
      Object.fromEntries(Object.entries(await serverColumn("stot")).map(([name, n]) => [name, Number(n)])),
    output: () => output,
    close: () => stopProcesses([child]),
  };
}
