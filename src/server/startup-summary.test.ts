import { describe, expect, it } from "vitest";
import { demoOptions } from "./demo-options.js";
import { resolveOptions } from "./options.js";
import { featureStates, serviceOptions, startupSummary, withoutPassword } from "./startup-summary.js";

const baseURL = "http://localhost:3000";
const defaults = resolveOptions({}, { baseURL });

/** Every leaf of an options object, as `path -> JSON value`. */
function leaves(value: unknown, path = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) {
      for (const [p, v] of leaves(inner, path ? `${path}.${key}` : key)) out.set(p, v);
    }
  } else out.set(path, JSON.stringify(value));
  return out;
}

describe("an AUTH_CONFIG file is merged over the documented defaults", () => {
  it("a file that only sets admin changes nothing outside admin, and keeps admin's other defaults", () => {
    const merged = resolveOptions({ admin: { adminUserIds: ["u1"] } }, { baseURL });
    const before = leaves(defaults);
    const after = leaves(merged);
    const changed = [...after].filter(([path, value]) => before.get(path) !== value).map(([path]) => path);
    expect(changed).toEqual(["admin.adminUserIds"]);
    expect(merged.admin).toMatchObject({ enabled: true, adminRoles: ["admin"], defaultRole: "user" });
    expect(featureStates(merged).on).toEqual(featureStates(defaults).on);
  });

  it("a nested partial keeps its siblings' defaults at every depth", () => {
    const merged = resolveOptions({ organization: { teams: { maximumTeams: 3 } } }, { baseURL });
    expect(merged.organization).toMatchObject({
      enabled: true,
      allowUserToCreateOrganization: true,
      membershipLimit: 100,
    });
    expect(merged.organization.teams).toMatchObject({
      enabled: false,
      maximumTeams: 3,
      defaultTeam: { enabled: true },
    });
  });

  it("the demo defaults apply only without a file", () => {
    expect(serviceOptions({ authConfigPath: null, options: null })).toEqual({
      options: demoOptions,
      source: "demo defaults (no AUTH_CONFIG)",
    });
    const file = { admin: { adminUserIds: ["u1"] } };
    expect(serviceOptions({ authConfigPath: "/etc/gatehouse.json", options: file })).toEqual({
      options: file,
      source: "/etc/gatehouse.json (over the documented defaults)",
    });
    const demo = featureStates(resolveOptions(demoOptions, { baseURL })).on;
    expect(demo).toEqual(
      expect.arrayContaining(["organization.teams", "user.changeEmail", "user.deleteUser", "passkey"]),
    );
  });
});

describe("the start-up summary", () => {
  const env = {
    databaseUrl: "postgres://gatehouse:db-pass-1@db.internal:5432/auth?sslmode=require&password=db-pass-2",
    smtpUrl: "smtps://mailer:smtp-pass-1@smtp.example.com:465",
    mailDisabled: false,
    redisUrl: "redis://default:redis-pass-1@cache:6379",
    baseURL: "https://auth.example.com",
    production: true,
    secret: "the-auth-secret-that-must-never-be-logged-000",
  };

  it("says where options, database, mail and Redis are, and which features are on, without a secret", () => {
    const options = resolveOptions({ admin: { adminUserIds: ["u1"] } }, { baseURL: env.baseURL });
    const text = startupSummary({
      env,
      optionsSource: "/etc/gatehouse.json",
      options,
      basePath: "/api/auth",
      application: true,
    }).join("\n");
    expect(text).toContain("options:  /etc/gatehouse.json");
    expect(text).toContain("database: postgres://gatehouse@db.internal:5432/auth");
    expect(text).toContain("mail:     SMTP smtp.example.com:465");
    expect(text).toContain("redis:    cache:6379");
    expect(text).toContain("https://auth.example.com/api/auth (Secure cookies)");
    expect(text).toMatch(/features on: {2}emailAndPassword, organization, admin, jwt, anonymous, rateLimit\n/);
    expect(text).toMatch(/features off: user\.changeEmail, user\.deleteUser, organization\.teams, twoFactor/);
    for (const secret of ["db-pass-1", "db-pass-2", "smtp-pass-1", "mailer", "redis-pass-1", env.secret]) {
      expect(text).not.toContain(secret);
    }
  });

  it("names SSO, SCIM, the audit trail, metrics and the other switched features, on or off", () => {
    const switched = ["sso", "scim", "organizationWebhooks", "securityActivity", "audit", "metrics"];
    expect(featureStates(defaults).off).toEqual(expect.arrayContaining(switched));
    const on = resolveOptions(
      {
        sso: { enabled: true },
        scim: { enabled: true },
        organizationWebhooks: { enabled: true },
        securityActivity: { enabled: true },
        audit: { enabled: true },
        metrics: { enabled: true },
      },
      { baseURL },
    );
    expect(featureStates(on).on).toEqual(expect.arrayContaining(switched));
    expect(featureStates(on).off).not.toEqual(expect.arrayContaining(["sso"]));
  });

  it("names the development outbox without SMTP_URL, and SQLite URLs as they are", () => {
    const text = startupSummary({
      env: {
        databaseUrl: "sqlite:./data/gatehouse.sqlite",
        smtpUrl: null,
        mailDisabled: false,
        redisUrl: null,
        baseURL,
        production: false,
      },
      optionsSource: "demo defaults (no AUTH_CONFIG)",
      options: defaults,
      basePath: "/api/auth",
      application: true,
    }).join("\n");
    expect(text).toContain("app:      http://localhost:3000/ (dist/app)");
    expect(text).toContain("database: sqlite:./data/gatehouse.sqlite");
    expect(text).toContain("mail:     development outbox, http://localhost:3000/dev/outbox (no SMTP_URL)");
    expect(withoutPassword("not a url")).toBe("(unparsable URL)");
  });

  it("says mail is off with MAIL_DISABLED", () => {
    const env = { databaseUrl: "sqlite::memory:", smtpUrl: null, redisUrl: null, baseURL, production: true };
    const text = startupSummary({
      env: { ...env, mailDisabled: true },
      optionsSource: "demo defaults (no AUTH_CONFIG)",
      options: defaults,
      basePath: "/api/auth",
      application: true,
    }).join("\n");
    expect(text).toContain("mail:     disabled (MAIL_DISABLED): nothing is sent");
  });

  it("from the npm package (no dist/app) advertises only what answers: the API, its reference, the JSON outbox", () => {
    const text = startupSummary({
      env: {
        databaseUrl: "sqlite::memory:",
        smtpUrl: null,
        mailDisabled: false,
        redisUrl: null,
        baseURL,
        production: false,
      },
      optionsSource: "demo defaults (no AUTH_CONFIG)",
      options: defaults,
      basePath: "/api/auth",
      application: false,
    }).join("\n");
    expect(text).toContain("app:      none: the API only, reference at http://localhost:3000/api/auth/reference");
    expect(text).toContain(
      "mail:     development outbox, http://localhost:3000/api/auth/dev/outbox (JSON) (no SMTP_URL)",
    );
    expect(text).not.toContain("http://localhost:3000/dev/outbox");
  });

  it("without the application, names the mailed pages this service does not serve", () => {
    const summary = (options: Parameters<typeof resolveOptions>[0], application: boolean) =>
      startupSummary({
        env: {
          databaseUrl: "sqlite::memory:",
          smtpUrl: null,
          mailDisabled: false,
          redisUrl: null,
          baseURL,
          production: false,
        },
        optionsSource: "demo defaults (no AUTH_CONFIG)",
        options: resolveOptions(options, { baseURL }),
        basePath: "/api/auth",
        application,
      }).join("\n");
    expect(summary({}, false)).toContain(
      "pages:    not served here: /reset-password, /verify-email, /accept-invitation/:id (set pages, docs/cli.md#start)",
    );
    const elsewhere = {
      trustedOrigins: ["https://app.example.com"],
      pages: {
        resetPassword: "https://app.example.com/reset",
        magicLink: "https://app.example.com/link",
        verifyEmail: "https://app.example.com/verify",
        acceptInvitation: "https://app.example.com/join/:id",
        secureAccount: "https://app.example.com/secure",
        error: "https://app.example.com/error",
      },
    };
    expect(summary(elsewhere, false)).not.toContain("pages:");
    expect(summary({}, true)).not.toContain("pages:");
  });
});
