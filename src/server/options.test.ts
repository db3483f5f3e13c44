import { describe, expect, it } from "vitest";
import { ConfigError, resolveOptions } from "./options.js";

const base = { baseURL: "http://localhost:3000" };

describe("resolveOptions", () => {
  it("fills every default from docs/configuration.md", () => {
    const o = resolveOptions({}, base);
    expect(o.emailAndPassword).toEqual({
      enabled: true,
      disableSignUp: false,
      requireEmailVerification: false,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      sendResetPassword: true,
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
      legacyHashes: { refuseWeak: false },
    });
    expect(o.organizationWebhooks).toEqual({ enabled: false, maxPerOrganization: 10, allowPrivateUrls: false });
    expect(o.emailVerification).toMatchObject({
      sendVerificationEmail: true,
      sendOnSignUp: false,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: 3600,
    });
    expect(o.metrics).toEqual({ enabled: false, path: "/metrics" });
    expect(o.session).toEqual({
      additionalFields: {},
      expiresIn: 604800,
      updateAge: 86400,
      freshAge: 86400,
      absoluteLifetime: 2592000,
      cookieCache: { enabled: false, maxAge: 300 },
    });
    expect(o.account.accountLinking).toEqual({
      enabled: true,
      trustedProviders: [],
      allowDifferentEmails: false,
      allowUnlinkingAll: false,
    });
    expect(o.user).toEqual({
      additionalFields: {},
      changeEmail: { enabled: false, sendChangeEmailConfirmation: true },
      deleteUser: { enabled: false, sendDeleteAccountVerification: false, deleteTokenExpiresIn: 86400 },
    });
    expect(o.rateLimit).toEqual({ enabled: true, window: 10, max: 100, customRules: {} });
    expect(o.organization).toMatchObject({
      allowUserToCreateOrganization: true,
      membershipLimit: 100,
      creatorRole: "owner",
      invitationExpiresIn: 172800,
      teams: { enabled: false, allowRemovingAllTeams: false, defaultTeam: { enabled: true } },
    });
    expect(o.organization.organizationLimit).toBeUndefined();
    expect(o.advanced).toMatchObject({ cookiePrefix: "gatehouse", useSecureCookies: false });
    expect(o.trustedOrigins).toEqual([]);
    expect(o.housekeeping).toEqual({ enabled: true, interval: 60, batchSize: 1000, deliveredRetention: 604800 });
  });

  it("derives sendOnSignUp from requireEmailVerification and secure cookies from an https BASE_URL", () => {
    const o = resolveOptions(
      { emailAndPassword: { requireEmailVerification: true } },
      { baseURL: "https://auth.example.com" },
    );
    expect(o.emailVerification.sendOnSignUp).toBe(true);
    expect(o.advanced.useSecureCookies).toBe(true);
  });

  it("sends the verification mail on sign-up by default when a second factor or passkeys are on", () => {
    const sends = (input: object) => resolveOptions(input, base).emailVerification.sendOnSignUp;
    expect(sends({})).toBe(false);
    expect(sends({ twoFactor: { enabled: true } })).toBe(true);
    expect(sends({ passkey: { enabled: true } })).toBe(true);
    // A factor needs a proven mailbox: without the mail, nobody could add one. An explicit false still wins.
    expect(sends({ passkey: { enabled: true }, emailVerification: { sendOnSignUp: false } })).toBe(false);
  });

  it("lets unverified users invite unless organization.requireVerifiedInviter", () => {
    expect(resolveOptions({}, base).organization.requireVerifiedInviter).toBe(false);
    const strict = resolveOptions({ organization: { requireVerifiedInviter: true } }, base);
    expect(strict.organization.requireVerifiedInviter).toBe(true);
  });

  it("returns a frozen object", () => {
    const o = resolveOptions({}, base);
    expect(Object.isFrozen(o)).toBe(true);
    expect(Object.isFrozen(o.session.cookieCache)).toBe(true);
  });

  it("leaves single sign-on off, asking the system's resolvers, issuers public only", () => {
    expect(resolveOptions({}, base).sso).toEqual({
      enabled: false,
      dnsResolvers: [],
      allowPrivateIssuers: false,
      domainVerification: { tokenPrefix: "better-auth-token", expiresIn: 604800 },
      saml: { allowIdpInitiated: false },
    });
    const on = resolveOptions(
      { sso: { enabled: true, dnsResolvers: ["127.0.0.1:5353", "[::1]:53", "10.0.0.2"] } },
      base,
    );
    expect(on.sso.dnsResolvers).toEqual(["127.0.0.1:5353", "[::1]:53", "10.0.0.2"]);
  });

  it.each([
    [{ session: { expiresIn: "a week" } }, "session.expiresIn"],
    [{ emailAndPassword: { minPasswordLegth: 8 } }, "emailAndPassword"],
    [{ emailAndPassword: { minPasswordLength: 20, maxPasswordLength: 10 } }, "emailAndPassword.minPasswordLength"],
    [
      { rateLimit: { customRules: { "/sign-in/email": { window: 0, max: 1 } } } },
      "rateLimit.customRules./sign-in/email.window",
    ],
    [{ advanced: { cookiePrefix: "bad prefix;" } }, "advanced.cookiePrefix"],
    [{ socialProviders: { google: { clientSecret: "x" } } }, "socialProviders.google.clientId"],
    [{ housekeeping: { batchSize: 0 } }, "housekeeping.batchSize"],
    [{ housekeeping: { interval: 0.5 } }, "housekeeping.interval"],
    [{ housekeeping: { deliveredRetention: 0 } }, "housekeeping.deliveredRetention"],
    [{ nope: true }, "(root)"],
    [{ scim: { enabled: true }, organization: { enabled: false } }, "scim.enabled"],
    [{ scim: { enabled: true, userFields: { department: "title" } } }, "scim.userFields.department"],
    [{ organization: { teams: { roles: { lead: ["update"] } } } }, "organization.teams.roles.lead"],
    [{ sso: { dnsResolvers: ["dns.example.com"] } }, "sso.dnsResolvers.0"],
    [{ sso: { domainVerification: { tokenPrefix: "a b" } } }, "sso.domainVerification.tokenPrefix"],
  ])("refuses %j naming %s", (input, key) => {
    expect(() => resolveOptions(input, base)).toThrow(ConfigError);
    expect(() => resolveOptions(input, base)).toThrow(`option "${key}"`);
  });
});
