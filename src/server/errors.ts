import { type ErrorCode, errorCatalogue } from "../contract/errors/index.js";

/**
 * The one error type services throw. The catalogue gives the message and usual status;
 * a route may answer with another status where the wire contract says so.
 */
export class AuthError extends Error {
  override name = "AuthError";
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra JSON fields some answers carry beside code and message. */
  readonly details?: Record<string, unknown>;
  /** For a 429: when to try again, sent as Retry-After. */
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    init: { status?: number; message?: string; details?: Record<string, unknown>; retryAfterSeconds?: number } = {},
  ) {
    const entry = errorCatalogue[code];
    super(init.message ?? entry.message);
    this.code = code;
    this.status = init.status ?? entry.status;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/**
 * Whether a thrown value is an AuthError (what a refused `auth.api` call throws), with its code and status.
 *
 * @example
 * try {
 *   await auth.api.signInEmail({ body: { email, password } });
 * } catch (error) {
 *   if (isAuthError(error)) return res.status(error.status).json({ code: error.code, message: error.message });
 *   throw error;
 * }
 */
export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}
