import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEnvironment } from "./environment.js";

const secret = "s".repeat(32);

describe("readEnvironment", () => {
  it("applies the documented defaults", () => {
    const env = readEnvironment({ AUTH_SECRET: secret });
    expect(env).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      baseURL: "http://localhost:3000",
      databaseUrl: "sqlite:./data/gatehouse.sqlite",
      redisUrl: null,
      smtpUrl: null,
      options: null,
      production: false,
    });
  });

  it("derives BASE_URL from PORT", () => {
    expect(readEnvironment({ AUTH_SECRET: secret, PORT: "4100" }).baseURL).toBe("http://localhost:4100");
  });

  it.each([
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET must be at least 32 characters"],
    [{ NODE_ENV: "production" }, "AUTH_SECRET is required when NODE_ENV=production"],
    [{ AUTH_SECRET: secret, PORT: "http" }, "PORT must be a whole number"],
    [{ AUTH_SECRET: secret, BASE_URL: "ftp://x" }, "BASE_URL must be an http(s) URL"],
    [{ AUTH_SECRET: secret, DATABASE_URL: "mysql://x" }, "DATABASE_URL must start with sqlite: or postgres://"],
    [{ AUTH_SECRET: secret, SMTP_URL: "mail.example.com" }, "SMTP_URL must look like"],
    [{ AUTH_SECRET: secret, AUTH_CONFIG: "/nonexistent/gatehouse.json" }, "AUTH_CONFIG: cannot read"],
  ])("refuses %j", (env, message) => {
    expect(() => readEnvironment(env)).toThrow(message);
  });

  it("reads and parses the AUTH_CONFIG file, and names a JSON error", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-env-"));
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify({ session: { expiresIn: 60 } }));
    expect(readEnvironment({ AUTH_SECRET: secret, AUTH_CONFIG: good }).options).toEqual({ session: { expiresIn: 60 } });
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{ nope");
    expect(() => readEnvironment({ AUTH_SECRET: secret, AUTH_CONFIG: bad })).toThrow("is not valid JSON");
  });
});
