import { hasPermissionApiKey, hasPermissionSession } from "./api-keys.js";
import { getSession, getSessionCached, getSessionMetrics } from "./get-session.js";
import { listAccounts } from "./list-accounts.js";
import { listSessions } from "./list-sessions.js";
import { oauthClientCredentials, oauthIntrospect } from "./oauth.js";
import { getActiveMember, listMembers, listOrganizations } from "./organizations.js";
import { getSessionScale } from "./scale.js";
import { signInEmail, signInEmailAudited } from "./sign-in.js";
import type { Scenario } from "./types.js";
import { getSessionAudited, updateUser, updateUserAudited } from "./writes.js";

/** Every scenario, in the order the bench runs them. Add yours here. */
export const scenarios: readonly Scenario[] = [
  getSession,
  getSessionCached,
  listSessions,
  listAccounts,
  listOrganizations,
  getActiveMember,
  listMembers,
  signInEmail,
  signInEmailAudited,
  getSessionScale,
  getSessionMetrics,
  updateUser,
  updateUserAudited,
  getSessionAudited,
  hasPermissionSession,
  hasPermissionApiKey,
  oauthClientCredentials,
  oauthIntrospect,
];

/** Each read route against its floor (bench/floor-server.ts on the same SQLite database). */
export const FLOOR_TARGET = 0.5;
/** get-session with a fresh cookie cache against get-session's floor. */
export const CACHED_TARGET = { scenario: "get-session-cached", reference: "floor:get-session", target: 0.7 } as const;
/** Each scenario on PostgreSQL against the same scenario on SQLite. */
export const POSTGRES_TARGET = 0.5;
/** The large database's get-session p99 against the small one's: at most this much higher. */
export const SCALE_P99_TARGET = 1.2;

/** Server RSS under load, in MB. */
export const RSS_TARGET_MB = 120;
