import { ConfigError } from "../options.js";
import { genericOidc } from "./presets/generic-oidc.js";
import { presets } from "./presets/index.js";
import { SocialProvider } from "./social-provider.js";
import type { ProviderConfig } from "./types.js";

export interface ProviderRegistry {
  get(id: string): SocialProvider | null;
  ids(): string[];
  /** The Google provider One Tap verifies against (configured or built from oneTap.clientId), or null. */
  oneTap(): SocialProvider | null;
}

/**
 * Built once at start-up from options.socialProviders. An id with a preset uses it; any other id
 * needs an `issuer` and is a generic OpenID Connect provider.
 */
export function createProviderRegistry(
  socialProviders: Readonly<Record<string, ProviderConfig>>,
  input: { callbackBaseURL: string; oneTapClientId?: string; now?: () => Date },
): ProviderRegistry {
  const build = (id: string, config: ProviderConfig) => {
    const preset = presets[id]?.(config) ?? (config.issuer ? genericOidc : null);
    if (!preset) {
      throw new ConfigError(
        `options: option "socialProviders.${id}": no preset is named "${id}"; give an issuer for a generic OpenID Connect provider`,
      );
    }
    const redirectURI = config.redirectURI ?? `${input.callbackBaseURL}/callback/${id}`;
    return new SocialProvider(id, preset, config, redirectURI, input.now);
  };
  const providers = new Map<string, SocialProvider>();
  for (const [id, config] of Object.entries(socialProviders)) providers.set(id, build(id, config));

  const google = providers.get("google");
  const oneTapProvider = google
    ? google
    : input.oneTapClientId
      ? build("google", { clientId: input.oneTapClientId, clientSecret: "", disableSignUp: false })
      : null;

  return {
    get: (id) => providers.get(id) ?? null,
    ids: () => [...providers.keys()],
    oneTap: () => oneTapProvider,
  };
}
