import { auditTrailRoutes } from "../audit/trail.routes.js";
import type { AuthContext } from "../context.js";
import type { Route } from "../http/route.js";
import { scimRoutes } from "../scim/connections.routes.js";
import { scimProtocolRoutes } from "../scim/protocol.routes.js";
import { ssoRoutes } from "../sso/connections.routes.js";
import { accountDeletionRoutes } from "./account-deletion.js";
import { accountRoutes } from "./accounts.js";
import { adminRoutes } from "./admin.js";
import { anonymousRoutes } from "./anonymous.js";
import { apiKeyRoutes } from "./api-keys.js";
import { appConfigRoutes } from "./app-config.js";
import { coreRoutes } from "./core.js";
import { devOutboxRoutes } from "./dev-outbox.js";
import { emailOtpRoutes } from "./email-otp.js";
import { emailPasswordRoutes } from "./email-password.js";
import { emailVerificationRoutes } from "./email-verification.js";
import { invitationRoutes } from "./invitations.js";
import { jwtRoutes } from "./jwt.js";
import { magicLinkRoutes } from "./magic-link.js";
import { memberRoutes } from "./members.js";
import { oauthProviderRoutes } from "./oauth-provider.js";
import { organizationRoutes } from "./organization.js";
import { organizationWebhookRoutes } from "./organization-webhooks.js";
import { passkeyRoutes } from "./passkeys.js";
import { passwordRoutes } from "./password.js";
import { referenceRoutes } from "./reference.js";
import { securityActivityRoutes } from "./security-activity.js";
import { sessionRoutes } from "./session.js";
import { setupLinkRoutes } from "./setup.js";
import { socialRoutes } from "./social.js";
import { teamRoutes } from "./teams.js";
import { twoFactorRoutes } from "./two-factor.js";

/**
 * Every handler, registered in one place. Paths, methods, guards and switches come from the
 * endpoint table (src/contract/endpoints); `route` leaves out an endpoint whose feature is off.
 */
export function registerRoutes(route: Route, ctx: AuthContext): void {
  coreRoutes(route, ctx);
  emailPasswordRoutes(route);
  sessionRoutes(route);
  jwtRoutes(route);
  adminRoutes(route);
  auditTrailRoutes(route);
  socialRoutes(route);
  accountRoutes(route);
  anonymousRoutes(route);
  emailVerificationRoutes(route);
  passwordRoutes(route);
  accountDeletionRoutes(route);
  organizationRoutes(route);
  organizationWebhookRoutes(route);
  memberRoutes(route);
  invitationRoutes(route);
  teamRoutes(route);
  devOutboxRoutes(route);
  appConfigRoutes(route);
  referenceRoutes(route, ctx);
  twoFactorRoutes(route);
  magicLinkRoutes(route);
  emailOtpRoutes(route);
  passkeyRoutes(route);
  scimRoutes(route);
  scimProtocolRoutes(route, ctx);
  ssoRoutes(route);
  securityActivityRoutes(route);
  apiKeyRoutes(route);
  oauthProviderRoutes(route);
  setupLinkRoutes(route);
}
