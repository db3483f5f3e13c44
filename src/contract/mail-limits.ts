/**
 * How much mail one address can be sent (verify, reset, sign-in links and codes): the server drops
 * what passes the cap (email/outbox.ts), and the sign-in screens pace "Resend" to stay inside it.
 */
export const RECIPIENT_CAP = 3;
export const RECIPIENT_WINDOW_MS = 15 * 60_000;
/** The "mail" rate limit per client (http/rate-limit.ts): 3 a minute, so one resend per 20 s at most. */
export const RESEND_COOLDOWN_MS = 30_000;
