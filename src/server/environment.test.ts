import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startService } from "../service.js";
import { createAuth } from "./auth.js";
import { readEnvironment } from "./environment.js";
import type { Logger } from "./logger.js";

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
    [{ AUTH_SECRET: secret, MAIL_DISABLED: "yes" }, 'MAIL_DISABLED must be 1, true, 0 or false (got "yes")'],
    [
      { AUTH_SECRET: secret, MAIL_DISABLED: "1", SMTP_URL: "smtp://127.0.0.1:25" },
      "MAIL_DISABLED and SMTP_URL are both set",
    ],
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

describe("mail in production", () => {
  const production = { NODE_ENV: "production", AUTH_SECRET: secret, DATABASE_URL: "sqlite::memory:", PORT: "0" };

  it("reads MAIL_DISABLED as a yes/no flag", () => {
    expect(readEnvironment({ AUTH_SECRET: secret }).mailDisabled).toBe(false);
    expect(readEnvironment({ AUTH_SECRET: secret, MAIL_DISABLED: "true" }).mailDisabled).toBe(true);
    expect(readEnvironment({ AUTH_SECRET: secret, MAIL_DISABLED: "0" }).mailDisabled).toBe(false);
  });

  it("refuses to start without SMTP_URL, naming it, unless mail is disabled", async () => {
    await expect(startService(readEnvironment(production))).rejects.toThrow(
      /^SMTP_URL is required when NODE_ENV=production: .*MAIL_DISABLED=1/,
    );
    await expect(
      createAuth({ baseURL: "https://auth.example.com", secret, database: "sqlite::memory:", production: true }),
    ).rejects.toThrow("SMTP_URL is required when NODE_ENV=production");
  });

  it("refuses to start in production with a shorter enumeration-safe floor than the default", async () => {
    const base = { baseURL: "https://auth.example.com", secret, database: "sqlite::memory:", mail: { disabled: true } };
    await expect(createAuth({ ...base, production: true, enumerationSafeAnswerMs: 0 })).rejects.toThrow(
      /enumerationSafeAnswerMs below 500 ms is for tests/,
    );
    const auth = await createAuth({ ...base, production: false, enumerationSafeAnswerMs: 0 });
    await auth.close();
  });

  it("warns at start-up when metrics are served without a token, not when a token guards them", async () => {
    const started = async (metrics: Record<string, unknown>) => {
      const warnings: string[] = [];
      const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: () => {} };
      const auth = await createAuth({
        baseURL: "https://auth.example.com",
        secret,
        database: "sqlite::memory:",
        production: true,
        mail: { disabled: true },
        options: { metrics },
        logger,
      });
      await auth.close();
      return warnings;
    };
    expect(await started({ enabled: true, path: "/internal/metrics" })).toContainEqual(
      expect.stringMatching(/^metrics\.enabled without metrics\.token: \/internal\/metrics is served to anyone/),
    );
    expect((await started({ enabled: true, token: "scrape-token-0123456789abcdef" })).join("\n")).not.toContain(
      "metrics",
    );
    expect((await started({ enabled: false })).join("\n")).not.toContain("metrics");
  });

  it("with MAIL_DISABLED starts, and logs no mail text (no live link)", async () => {
    const env = readEnvironment({ ...production, MAIL_DISABLED: "1" });
    const logged: string[] = [];
    const record = (message: string, fields?: object) => logged.push(`${message} ${JSON.stringify(fields)}`);
    const logger: Logger = { info: record, warn: record, error: record };
    const auth = await createAuth({
      baseURL: "https://auth.example.com",
      secret: env.secret,
      database: env.databaseUrl,
      production: env.production,
      mail: { smtpUrl: env.smtpUrl, disabled: env.mailDisabled },
      logger,
    });
    try {
      const signUp = await auth.handler(
        new Request("https://auth.example.com/api/auth/sign-up/email", {
          method: "POST",
          headers: { "content-type": "application/json", origin: "https://auth.example.com" },
          body: JSON.stringify({ name: "Ada", email: "ada@example.com", password: "sturdy-pass-123" }),
        }),
      );
      expect(signUp.status).toBe(200);
      const reset = await auth.handler(
        new Request("https://auth.example.com/api/auth/request-password-reset", {
          method: "POST",
          headers: { "content-type": "application/json", origin: "https://auth.example.com" },
          body: JSON.stringify({ email: "ada@example.com", redirectTo: "/reset-password" }),
        }),
      );
      expect(reset.status).toBe(200);
      await auth.context.mail.flush();
      expect(logged).toContainEqual(
        expect.stringContaining('mail not sent (mail is disabled) {"kind":"reset-password"}'),
      );
      expect(logged.join("\n")).not.toContain("token");
      expect(logged.join("\n")).not.toContain("ada@example.com");
    } finally {
      await auth.close();
    }
  });
});
