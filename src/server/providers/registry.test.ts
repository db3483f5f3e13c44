import { describe, expect, it } from "vitest";
import { ConfigError } from "../options.js";
import { createProviderRegistry } from "./registry.js";

const base = { clientSecret: "s", disableSignUp: false };

describe("provider registry", () => {
  it("builds presets and generic OpenID Connect providers with their callback URLs", () => {
    const registry = createProviderRegistry(
      {
        google: { clientId: "g", ...base },
        corp: { clientId: "c", issuer: "https://id.corp.example", ...base },
        github: { clientId: "gh", redirectURI: "https://app.example/cb", ...base },
      },
      { callbackBaseURL: "https://auth.example/api/auth" },
    );
    expect(registry.ids()).toEqual(["google", "corp", "github"]);
    expect(registry.get("google")?.redirectURI).toBe("https://auth.example/api/auth/callback/google");
    expect(registry.get("corp")?.supportsIdToken).toBe(true);
    expect(registry.get("github")?.supportsIdToken).toBe(false);
    expect(registry.get("github")?.redirectURI).toBe("https://app.example/cb");
    expect(registry.get("nope")).toBeNull();
    expect(registry.oneTap()?.id).toBe("google");
  });

  it("refuses at start-up an id with neither a preset nor an issuer, naming the option", () => {
    expect(() =>
      createProviderRegistry({ corp: { clientId: "c", ...base } }, { callbackBaseURL: "https://a" }),
    ).toThrow(ConfigError);
    expect(() =>
      createProviderRegistry({ corp: { clientId: "c", ...base } }, { callbackBaseURL: "https://a" }),
    ).toThrow(/socialProviders\.corp/);
  });

  it("builds a Google verifier for One Tap from oneTap.clientId alone", () => {
    const registry = createProviderRegistry({}, { callbackBaseURL: "https://a", oneTapClientId: "one-tap" });
    expect(registry.oneTap()?.config.clientId).toBe("one-tap");
    expect(createProviderRegistry({}, { callbackBaseURL: "https://a" }).oneTap()).toBeNull();
  });

  it("uses the preset's endpoints without discovery and lets overrides win", async () => {
    const registry = createProviderRegistry(
      { google: { clientId: "g", tokenEndpoint: "http://127.0.0.1:1/token", ...base } },
      { callbackBaseURL: "https://a" },
    );
    const metadata = await registry.get("google")!.metadata();
    expect(metadata.authorization_endpoint).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(metadata.token_endpoint).toBe("http://127.0.0.1:1/token");
    expect(metadata.issuer).toBe("https://accounts.google.com");
  });
});
