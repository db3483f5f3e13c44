/**
 * Which endpoints end in a sign-in, and what their answer says of it. Read from the answer (status,
 * cookies, redirect) rather than counted inside each flow, so the endpoint table and this list are
 * the only places that know.
 */
const SIGN_IN_METHODS: Readonly<Record<string, string>> = {
  "POST /sign-in/email": "email",
  "POST /sign-in/social": "social", // with an idToken; a redirect to the provider is not an outcome yet
  "GET /callback/:id": "social",
  "POST /callback/:id": "social", // form_post providers (Apple)
  "GET /magic-link/verify": "magic-link",
  "POST /magic-link/verify": "magic-link",
  "POST /sign-in/email-otp": "email-otp",
  "POST /passkey/verify-authentication": "passkey",
  "POST /sign-in/anonymous": "anonymous",
  "POST /one-tap/callback": "one-tap",
  "POST /two-factor/verify-totp": "two-factor",
  "POST /two-factor/verify-backup-code": "two-factor",
  "POST /two-factor/verify-otp": "two-factor",
};

/** The sign-in method an endpoint counts under, if it is one. */
export function signInMethodOf(method: string, path: string): string | undefined {
  return SIGN_IN_METHODS[`${method} ${path}`];
}

/** A session cookie with a value (an expiring one is written empty). */
const SESSION_SET = /\.session_token=[^;]/;
/** The cookie that holds a sign-in waiting for its second factor. */
const SECOND_FACTOR_SET = /\.two_factor=[^;]/;

/**
 * success: a session cookie was set; second_factor: the password (or link) was right and a second
 * factor is asked; failure: refused (4xx, or a redirect carrying `error=`); error: a 5xx. Anything
 * else (a redirect to the provider) is no outcome yet.
 */
export function signInOutcome(response: Response): "success" | "failure" | "second_factor" | "error" | null {
  const status = response.status;
  if (status >= 500) return "error";
  if (status >= 400) return "failure";
  const cookies = response.headers.getSetCookie();
  if (cookies.some((cookie) => SESSION_SET.test(cookie))) return "success";
  if (cookies.some((cookie) => SECOND_FACTOR_SET.test(cookie))) return "second_factor";
  if (status >= 300 && /[?&#]error=/.test(response.headers.get("location") ?? "")) return "failure";
  return null;
}
