import { passkeyEndpoints } from "../../contract/endpoints/index.js";
import { expireCookie, readSignedCookie, writeSessionCookies, writeSignedCookie } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requestMeta } from "../http/session.js";
import { isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import {
  authenticationOptions,
  CHALLENGE_SECONDS,
  deleteUserPasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  renameUserPasskey,
  signInWithPasskey,
} from "../services/passkeys.js";

/** Routed only while passkey is on (the endpoints' feature switch). */
export function passkeyRoutes(route: Route): void {
  route(passkeyEndpoints.generateRegisterOptions, async (c, { query, caller }) => {
    const { options, token } = await registrationOptions(c.get("auth"), caller, query);
    writeSignedCookie(c, "passkey_challenge", token, CHALLENGE_SECONDS);
    return { ...options };
  });

  route(passkeyEndpoints.verifyRegistration, async (c, { body, caller }) => {
    const challenge = readSignedCookie(c, "passkey_challenge");
    const passkey = await registerPasskey(c.get("auth"), caller, body, challenge, requestLocale(c));
    expireCookie(c, "passkey_challenge");
    return passkey;
  });

  route(passkeyEndpoints.generateAuthenticateOptions, async (c) => {
    const { options, token } = await authenticationOptions(c.get("auth"));
    writeSignedCookie(c, "passkey_challenge", token, CHALLENGE_SECONDS);
    return { ...options };
  });

  route(passkeyEndpoints.verifyAuthentication, async (c, { body }) => {
    const guest = await getRequestSession(c);
    const challenge = readSignedCookie(c, "passkey_challenge");
    const result = await signInOrChallenge(c, true, () =>
      signInWithPasskey(c.get("auth"), body, challenge, requestMeta(c), guest),
    );
    expireCookie(c, "passkey_challenge");
    if (isTwoFactorRedirect(result)) return result;
    writeSessionCookies(c, result, { rememberMe: true });
    return result;
  });

  route(passkeyEndpoints.listPasskeys, (c, { caller }) => listPasskeys(c.get("auth"), caller.user.id));

  route(passkeyEndpoints.updatePasskey, async (c, { body, caller }) => ({
    passkey: await renameUserPasskey(c.get("auth"), caller.user.id, body.id, body.name),
  }));

  route(passkeyEndpoints.deletePasskey, async (c, { body, caller }) => {
    await deleteUserPasskey(c.get("auth"), caller.user, body.id, requestLocale(c));
    return { status: true };
  });
}
