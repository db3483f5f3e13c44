import { SEED_PASSWORD, seedUsers } from "../lib/seed.js";
import type { Scenario } from "./types.js";

/** Dominated by argon2id at OWASP's minimum (19 MiB, t=2), which is the point: it should be. */
export const signInEmail: Scenario = {
  name: "sign-in-email",
  description: "POST /sign-in/email (argon2id m=19MiB t=2), new session each",
  setup: async (target) => {
    const users = await seedUsers(target.origin, Math.max(1, Math.ceil(target.users / 5)), "sign-in");
    return users.map((user) => ({
      method: "POST",
      path: `${target.basePath}/sign-in/email`,
      headers: { "content-type": "application/json", origin: target.origin },
      body: JSON.stringify({ email: user.email, password: SEED_PASSWORD }),
    }));
  },
};

/**
 * The same with the audit trail on (docs/audit.md): BENCH_ONLY=sign-in-email,sign-in-email-audited
 * runs both in the same rounds, so their ratio is what auditing costs a sign-in.
 */
export const signInEmailAudited: Scenario = {
  ...signInEmail,
  name: "sign-in-email-audited",
  description: "POST /sign-in/email as sign-in-email, audit trail on (entry in the session's transaction)",
  options: { audit: { enabled: true } },
  optIn: true,
};
