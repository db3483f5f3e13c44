import type { Context } from "hono";
import { twoFactorEndpoints } from "../../contract/endpoints/index.js";
import {
  expireCookie,
  isDontRemember,
  readSignedCookie,
  writeSessionCookies,
  writeSignedCookie,
} from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requestMeta } from "../http/session.js";
import {
  disableTwoFactor,
  enableTwoFactor,
  getTotpUri,
  regenerateBackupCodes,
  resolveSubject,
  type SecondFactorOutcome,
  sendTwoFactorOtp,
  verifyBackupCode,
  verifyTotp,
  verifyTwoFactorOtp,
} from "../services/two-factor.js";

/** Who is proving a factor: the signed-in caller (set-up), else the sign-in named by the two-factor cookie. */
async function subjectOf(c: Context<AuthEnv>) {
  return resolveSubject(c.get("auth"), await getRequestSession(c), readSignedCookie(c, "two_factor"));
}

/** After a proven factor: the session's cookies (new at sign-in), the trust cookie, and `{token, user}`. */
function answer(c: Context<AuthEnv>, outcome: SecondFactorOutcome) {
  const ctx = c.get("auth");
  expireCookie(c, "two_factor");
  writeSessionCookies(c, outcome.data, { rememberMe: outcome.rememberMe ?? !isDontRemember(c) });
  if (outcome.trustedDeviceToken) {
    writeSignedCookie(c, "trust_device", outcome.trustedDeviceToken, ctx.options.twoFactor.trustDeviceDays * 86400);
  }
  return { token: outcome.data.session.token, user: outcome.data.user };
}

/** Routed only while twoFactor is on (the endpoints' feature switch). */
export function twoFactorRoutes(route: Route): void {
  route(twoFactorEndpoints.enableTwoFactor, async (c, { body, caller }) => {
    const result = await enableTwoFactor(c.get("auth"), caller, body, requestLocale(c));
    // The cookie cache must show the switch when skipVerificationOnEnable turned it on.
    writeSessionCookies(c, { session: caller.session, user: result.user }, { rememberMe: !isDontRemember(c) });
    return { method: "totp" as const, totpURI: result.totpURI, backupCodes: result.backupCodes };
  });

  route(twoFactorEndpoints.getTotpUri, async (c, { caller }) => ({
    totpURI: await getTotpUri(c.get("auth"), caller),
  }));

  route(twoFactorEndpoints.disableTwoFactor, async (c, { caller }) => {
    const user = await disableTwoFactor(c.get("auth"), caller, requestLocale(c));
    writeSessionCookies(c, { session: caller.session, user }, { rememberMe: !isDontRemember(c) });
    expireCookie(c, "trust_device");
    return { status: true };
  });

  route(twoFactorEndpoints.generateBackupCodes, async (c, { caller }) => ({
    status: true,
    backupCodes: await regenerateBackupCodes(c.get("auth"), caller),
  }));

  route(twoFactorEndpoints.verifyTotp, async (c, { body }) =>
    answer(c, await verifyTotp(c.get("auth"), await subjectOf(c), body, requestMeta(c))),
  );

  route(twoFactorEndpoints.verifyBackupCode, async (c, { body }) =>
    answer(c, await verifyBackupCode(c.get("auth"), await subjectOf(c), body, requestMeta(c))),
  );

  route(twoFactorEndpoints.sendTwoFactorOtp, async (c) => {
    await sendTwoFactorOtp(c.get("auth"), await subjectOf(c), requestLocale(c));
    return { status: true };
  });

  route(twoFactorEndpoints.verifyTwoFactorOtp, async (c, { body }) =>
    answer(c, await verifyTwoFactorOtp(c.get("auth"), await subjectOf(c), body, requestMeta(c))),
  );
}
