import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes a new self-signed certificate for `commonName`, valid `days` from now, and its key into `dir` (PEM). */
export function writeSelfSignedCertificate(
  dir: string,
  commonName: string,
  days: number,
): { keyPath: string; certPath: string } {
  const keyPath = join(dir, "key.pem");
  const certPath = join(dir, "cert.pem");
  const made = spawnSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    keyPath,
    "-out",
    certPath,
    "-days",
    String(days),
    "-subj",
    `/CN=${commonName}`,
  ]);
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { keyPath, certPath };
}

/** A new self-signed certificate (PEM) for `commonName`, valid `days` from now; its key is thrown away. */
export function selfSignedCertificate(commonName: string, days: number): string {
  const dir = mkdtempSync(join(tmpdir(), "test-cert-"));
  try {
    return readFileSync(writeSelfSignedCertificate(dir, commonName, days).certPath, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
