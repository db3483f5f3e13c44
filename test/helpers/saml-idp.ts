import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSelfSignedCertificate } from "./certificates.js";
import { SAML_PYTHON, unavailable, XMLSEC1 } from "./prerequisites.js";

/**
 * A real SAML 2.0 IdP on loopback: pysaml2's IdP server (Debian's python3-pysaml2 with xmlsec1) run
 * by test/helpers/saml-idp.py, signing with a key and certificate made here for the run.
 */

const SCRIPT = fileURLToPath(new URL("./saml-idp.py", import.meta.url));

/** Why the SAML tests cannot run here, or null when they can. */
export function samlIdpUnavailable(): string | null {
  return unavailable("saml");
}

export type SamlMode =
  | "good"
  | "assertion-only"
  | "response-only"
  | "unsigned"
  | "expired"
  | "wrong-audience"
  | "wrong-recipient"
  | "other-issuer";

export interface SamlUser {
  /** The NameID (persistent). */
  id: string;
  email: string;
  name?: string;
  groups?: string[];
}

/** What the IdP's auto-posting form would send to the ACS. */
export interface SamlPost {
  acs: string;
  SAMLResponse: string;
  RelayState: string;
  inResponseTo?: string;
}

export interface TestSamlIdp {
  base: string;
  entityId: string;
  ssoURL: string;
  /** The IdP's signing certificate (PEM). */
  cert: string;
  metadata(): Promise<string>;
  /** Makes the IdP answer the SP its metadata describes. */
  registerSp(metadataXml: string): Promise<void>;
  /** Follows the SP's redirect to the IdP: the user signs in, and the IdP answers with its response. */
  signIn(redirectURL: string, user: SamlUser, mode?: SamlMode): Promise<SamlPost>;
  /** The next browser that comes to the IdP signs in as `user`: its form ("Continue to the application") posts the response to the ACS. */
  nextBrowserSignIn(user: SamlUser, mode?: SamlMode): Promise<void>;
  /** An IdP-initiated (unsolicited) response. */
  unsolicited(input: {
    user: SamlUser;
    spEntityId: string;
    acs: string;
    relayState?: string;
    mode?: SamlMode;
  }): Promise<SamlPost>;
  close(): Promise<void>;
}

async function call(url: string, init?: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`IdP ${url} answered ${res.status}: ${text}`);
  return text.startsWith("{") ? JSON.parse(text) : text;
}

export async function startSamlIdp(): Promise<TestSamlIdp> {
  const dir = mkdtempSync(join(tmpdir(), "saml-idp-"));
  const { keyPath: key, certPath: certFile } = writeSelfSignedCertificate(dir, "test-idp", 2);
  const cert = readFileSync(certFile, "utf8");
  const child: ChildProcess = spawn(SAML_PYTHON, [SCRIPT, key, certFile, XMLSEC1], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`SAML IdP did not start: ${stderr}`)), 20_000);
    child.stdout?.on("data", (chunk) => {
      const match = /READY (\d+)/.exec(String(chunk));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`SAML IdP exited with ${code}: ${stderr}`));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    entityId: `${base}/metadata`,
    ssoURL: `${base}/sso`,
    cert,
    metadata: () => call(`${base}/metadata`),
    async registerSp(metadataXml) {
      await call(`${base}/register-sp`, { method: "POST", body: metadataXml });
    },
    async signIn(redirectURL, user, mode = "good") {
      await call(`${base}/next`, { method: "POST", body: JSON.stringify({ user, mode }) });
      return call(redirectURL);
    },
    async nextBrowserSignIn(user, mode = "good") {
      await call(`${base}/next`, { method: "POST", body: JSON.stringify({ user, mode, form: true }) });
    },
    unsolicited: (input) => call(`${base}/unsolicited`, { method: "POST", body: JSON.stringify(input) }),
    async close() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
