import { serviceEndpoints } from "../../contract/endpoints/index.js";
import { roleTableJson } from "../../contract/roles.js";
import type { Route } from "../http/route.js";
import { oneTapClientId } from "../options.js";
import { roleTable } from "../services/access-control.js";

/**
 * What the application needs to know to draw its screens: which sign-in methods and account
 * features are switched on. Provider ids only, never secrets. Not part of the reference wire.
 */
export function appConfigRoutes(route: Route): void {
  route(serviceEndpoints.appConfig, (c) => {
    const { options, devOutbox } = c.get("auth");
    return {
      emailAndPassword: {
        enabled: options.emailAndPassword.enabled,
        disableSignUp: options.emailAndPassword.disableSignUp,
        minPasswordLength: options.emailAndPassword.minPasswordLength,
        maxPasswordLength: options.emailAndPassword.maxPasswordLength,
        requireEmailVerification: options.emailAndPassword.requireEmailVerification,
      },
      socialProviders: Object.keys(options.socialProviders),
      anonymous: options.anonymous.enabled,
      oneTapClientId: oneTapClientId(options),
      changeEmail: options.user.changeEmail.enabled,
      deleteUser: {
        enabled: options.user.deleteUser.enabled,
        sendDeleteAccountVerification: options.user.deleteUser.sendDeleteAccountVerification,
      },
      organization: {
        enabled: options.organization.enabled,
        teams: options.organization.teams.enabled,
        roles: roleTableJson({ creatorRole: options.organization.creatorRole, roles: roleTable(c.get("auth")) }),
      },
      twoFactor: { enabled: options.twoFactor.enabled, otp: options.twoFactor.otp.enabled },
      magicLink: options.magicLink.enabled,
      emailOTP: options.emailOTP.enabled,
      emailOTPLength: options.emailOTP.otpLength,
      passkey: options.passkey.enabled,
      scim: options.scim.enabled,
      securityActivity: options.securityActivity.enabled,
      audit: { enabled: options.audit.enabled, ownerRole: options.organization.creatorRole },
      devOutbox,
      sso: options.sso.enabled && options.organization.enabled,
      organizationWebhooks: options.organization.enabled && options.organizationWebhooks.enabled,
      apiKeys: options.organization.enabled && options.apiKey.enabled,
      oauthProvider: options.oauthProvider.enabled,
    };
  });
}
