import type { ProviderConfig, ProviderPreset } from "../types.js";
import { apple } from "./apple.js";
import { discord } from "./discord.js";
import { facebook } from "./facebook.js";
import { github } from "./github.js";
import { gitlab } from "./gitlab.js";
import { google } from "./google.js";
import { microsoft } from "./microsoft.js";

/** Presets by provider id; any other id with an `issuer` is a generic OpenID Connect provider. */
export const presets: Record<string, (config: ProviderConfig) => ProviderPreset> = {
  google: () => google,
  github: () => github,
  microsoft,
  discord: () => discord,
  apple: () => apple,
  gitlab: () => gitlab,
  facebook: () => facebook,
};
