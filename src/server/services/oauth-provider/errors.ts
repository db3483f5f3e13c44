import type { ErrorCode } from "../../../contract/errors/index.js";
import { OAUTH_WIRE_ERRORS } from "../../../contract/errors/oauth-provider.js";
import { AuthError } from "../../errors.js";

/**
 * An OAuth protocol refusal: the house `{code, message}` plus RFC 6749's `error` and
 * `error_description`, which OAuth clients read (docs/wire-decisions.md).
 */
export function oauthError(code: keyof typeof OAUTH_WIRE_ERRORS & ErrorCode, description?: string): AuthError {
  const error = new AuthError(code, description ? { message: description } : {});
  return new AuthError(code, {
    message: error.message,
    details: { error: OAUTH_WIRE_ERRORS[code], error_description: error.message },
  });
}
