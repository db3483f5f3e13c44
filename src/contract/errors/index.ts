import { adminErrors } from "./admin.js";
import { apiKeyErrors } from "./api-keys.js";
import { coreErrors } from "./core.js";
import type { ErrorEntry } from "./define.js";
import { oauthProviderErrors } from "./oauth-provider.js";
import { organizationErrors } from "./organization.js";
import { scimErrors } from "./scim.js";
import { setupLinkErrors } from "./setup-links.js";
import { socialErrors } from "./social.js";
import { ssoErrors } from "./sso.js";
import { twoFactorErrors } from "./two-factor.js";

/**
 * Every error code the API can answer with: code -> message and usual HTTP status.
 * Clients branch on `code`; the message is for people.
 */
export const errorCatalogue = {
  ...coreErrors,
  ...socialErrors,
  ...organizationErrors,
  ...adminErrors,
  ...twoFactorErrors,
  ...scimErrors,
  ...ssoErrors,
  ...apiKeyErrors,
  ...oauthProviderErrors,
  ...setupLinkErrors,
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The JSON body of every error answer. */
export interface ErrorBody {
  code: ErrorCode | (string & {});
  message: string;
}
