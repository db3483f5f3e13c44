import type { Hono } from "hono";
import type { AuthContext } from "../context.js";
import type { AuthEnv } from "../http/env.js";
import { accountDeletionRoutes } from "./account-deletion.js";
import { accountRoutes } from "./accounts.js";
import { adminRoutes } from "./admin.js";
import { anonymousRoutes } from "./anonymous.js";
import { appConfigRoutes } from "./app-config.js";
import { coreRoutes } from "./core.js";
import { devOutboxRoutes } from "./dev-outbox.js";
import { emailPasswordRoutes } from "./email-password.js";
import { emailVerificationRoutes } from "./email-verification.js";
import { invitationRoutes } from "./invitations.js";
import { jwtRoutes } from "./jwt.js";
import { memberRoutes } from "./members.js";
import { organizationRoutes } from "./organization.js";
import { passwordRoutes } from "./password.js";
import { sessionRoutes } from "./session.js";
import { socialRoutes } from "./social.js";
import { teamRoutes } from "./teams.js";

/** Every route area, registered in one place; each file writes its paths out in full. */
export function registerRoutes(app: Hono<AuthEnv>, ctx: AuthContext): void {
  coreRoutes(app, ctx);
  emailPasswordRoutes(app);
  sessionRoutes(app);
  jwtRoutes(app);
  adminRoutes(app);
  socialRoutes(app);
  accountRoutes(app);
  anonymousRoutes(app);
  emailVerificationRoutes(app);
  passwordRoutes(app);
  accountDeletionRoutes(app);
  registerOrganizationRoutes(app, ctx);
  devOutboxRoutes(app);
  appConfigRoutes(app);
}

/** Options are fixed at start-up, so a disabled area is simply not routed (404). */
function registerOrganizationRoutes(app: Hono<AuthEnv>, ctx: AuthContext): void {
  const { enabled, teams } = ctx.options.organization;
  if (!enabled) return;
  organizationRoutes(app);
  memberRoutes(app);
  invitationRoutes(app);
  if (teams.enabled) teamRoutes(app);
}
