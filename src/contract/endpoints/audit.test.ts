import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "../audit.js";
import type { Endpoint } from "./define.js";
import { allEndpoints } from "./index.js";

/**
 * Every route that may change something (any method but GET) declares its audit entry on its table
 * entry (`audit`), or is listed here with the reason it writes none. A new route must take one side.
 */
const UNAUDITED: Record<string, string> = {
  "POST /update-session": "the session's own input fields: no account, credential or organization change",
  "POST /verify-password": "a check; a wrong password is the sign-in throttle's to count",
  "POST /send-verification-email": "mails a link; the verification it leads to is audited",
  "POST /sign-in/social": "starts a redirect; the callback that signs in is audited",
  "POST /link-social": "starts a redirect; the callback that links is audited (user.social_linked)",
  "POST /get-access-token": "reads (and may refresh) the caller's provider tokens",
  "POST /refresh-token": "refreshes the caller's provider tokens: no account change",
  "POST /account-info": "a read",
  "POST /organization/check-slug": "a read",
  "POST /organization/set-active": "the session's choice of organization, not a change to it",
  "POST /organization/has-permission": "a read",
  "POST /organization/update-policy": "writes organization.policy_updated itself, naming what changed",
  "POST /organization/test-webhook": "sends a test delivery; nothing stored changes",
  "POST /organization/set-active-team": "the session's choice of team",
  "POST /admin/list-user-sessions": "a read",
  "POST /admin/has-permission": "a read",
  "POST /two-factor/get-totp-uri": "a read (behind the caller's password)",
  "POST /two-factor/send-otp": "mails a code; its use is audited (user.two_factor_verified)",
  "POST /sign-in/magic-link": "mails a link; its use is audited",
  "POST /email-otp/send-verification-otp": "mails a code; its use is audited",
  "POST /email-otp/check-verification-otp": "a check that spends nothing but a guess",
  "POST /sso/request-domain-verification": "a read of the DNS record to publish; the verification is audited",
  "POST /sso/test-connection": "checks a configuration; nothing stored changes",
  "POST /sign-in/sso": "starts a redirect; the callback that signs in is audited",
  "POST /api-key/verify": "server only, a check; a key's use from a new address writes its own entry",
  "POST /oauth2/continue": "carries on an authorization; the consent it leads to is audited",
  "POST /device/code": "a device's request; its approval is audited (oauth.consent_granted)",
  "POST /oauth2/introspect": "a read by a client",
  "POST /oauth2/userinfo": "a read",
  "POST /setup/close": "forgets the link in this browser only",
  "POST /setup/sso/test-connection": "checks a configuration; nothing stored changes",
  "POST /setup/sso/request-domain-verification": "a read of the DNS record to publish",
  "POST /setup/audit-stream/test": "sends a test delivery; nothing stored changes",
};

const name = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

describe("the endpoint table's audit declarations", () => {
  it("cover every route that may change something, or it is listed as unaudited with its reason", () => {
    const undecided = allEndpoints
      .filter((endpoint) => endpoint.method !== "GET" && !endpoint.audit && !(name(endpoint) in UNAUDITED))
      .map(name);
    expect(undecided).toEqual([]);
  });

  it("list as unaudited only routes that exist and declare no entry", () => {
    const byName = new Map(allEndpoints.map((endpoint) => [name(endpoint), endpoint]));
    const stale = Object.keys(UNAUDITED).filter((route) => !byName.get(route) || byName.get(route)?.audit);
    expect(stale).toEqual([]);
  });

  it("name declared actions, and an input field the route's input has", () => {
    const wrong: string[] = [];
    for (const endpoint of allEndpoints) {
      const audit = endpoint.audit;
      if (!audit) continue;
      if (!AUDIT_ACTIONS.includes(audit.action)) wrong.push(`${name(endpoint)}: ${audit.action}`);
      const fields = new Set([...inputFields(endpoint.body), ...inputFields(endpoint.query)]);
      for (const field of [audit.subject, audit.organization]) {
        if (field && !fields.has(field)) wrong.push(`${name(endpoint)}: no input field ${field}`);
      }
      // An organization the input names goes in the entry (the organization's owners read it there).
      if (fields.has("organizationId") && !audit.organization)
        wrong.push(`${name(endpoint)}: organizationId not named`);
    }
    expect(wrong).toEqual([]);
  });
});

/** The top-level fields an input schema takes (objects, unions of them, piped or optional ones). */
function inputFields(schema: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    const s = node as { shape?: Record<string, unknown>; def?: Record<string, unknown> } | undefined;
    if (!s) return;
    if (s.shape) found.push(...Object.keys(s.shape));
    const def = s.def;
    if (!def) return;
    if (Array.isArray(def.options)) def.options.forEach(walk);
    for (const inner of [def.in, def.innerType, def.left, def.right]) walk(inner);
  };
  walk(schema);
  return found;
}
