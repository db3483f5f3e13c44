import type { Hono } from "hono";
import type { AuthEnv } from "../http/env.js";
import { accountRoutes } from "./accounts.js";
import { adminRoutes } from "./admin.js";
import { anonymousRoutes } from "./anonymous.js";
import { coreRoutes } from "./core.js";
import { emailPasswordRoutes } from "./email-password.js";
import { jwtRoutes } from "./jwt.js";
import { sessionRoutes } from "./session.js";
import { socialRoutes } from "./social.js";

/** Every route area, registered in one place; each file writes its paths out in full. */
export function registerRoutes(app: Hono<AuthEnv>): void {
  coreRoutes(app);
  emailPasswordRoutes(app);
  sessionRoutes(app);
  jwtRoutes(app);
  adminRoutes(app);
  socialRoutes(app);
  accountRoutes(app);
  anonymousRoutes(app);
}
