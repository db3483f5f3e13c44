import { describe, expect, it } from "vitest";
import { de } from "./de.js";
import { en } from "./en.js";

/**
 * German the same as English is usually a string nobody translated. These are the same on purpose:
 * names, loan words German uses as they are, and formats with no words.
 */
const sameInGerman = new Set([
  "app.name",
  "outbox.html",
  "passkeys.default",
  "passkeys.title",
  "field.name",
  "invite.team",
  "teams.title",
  "webhooks.title",
  "device.browser",
  "preferences.theme.system",
  "admin.search.in",
  "admin.sort.name",
  "admin.audit.ip",
  "sessions.device",
  "activity.signIn",
  "directory.groups.team",
  "connections.type.oidc",
  "connections.type.saml",
  "connections.domains",
  "connections.domain.recordName",
  "deviceAuth.code",
  // Product names.
  "setup.guide.okta.name",
  "setup.guide.entra.name",
  "setup.guide.google.name",
  "setup.guide.onelogin.name",
  "setup.guide.jumpcloud.name",
  "setup.guide.adfs.name",
]);

describe("the German catalogue", () => {
  it("translates every message (same as English only where listed)", () => {
    const untranslated = Object.entries(en)
      .filter(([key, text]) => de[key as keyof typeof de] === text && !sameInGerman.has(key))
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
  });

  it("keeps every placeholder of the English message", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const differing = Object.entries(en)
      .filter(([key, text]) => placeholders(text).join() !== placeholders(de[key as keyof typeof de]).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });
});
