import { floor } from "./floor.js";
import { getSession, getSessionCached } from "./get-session.js";
import { listSessions } from "./list-sessions.js";
import { signInEmail } from "./sign-in.js";
import type { Scenario } from "./types.js";

/** Every scenario, in the order the bench runs them. Add yours here. */
export const scenarios: readonly Scenario[] = [floor, getSession, getSessionCached, listSessions, signInEmail];

/** get-session against the floor, with the targets. */
export const ratioTargets = [
  { scenario: "get-session", reference: "floor", target: 0.5 },
  { scenario: "get-session-cached", reference: "floor", target: 0.7 },
] as const;

/** Server RSS under load, in MB. */
export const RSS_TARGET_MB = 120;
