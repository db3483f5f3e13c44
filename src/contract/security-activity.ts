import { z } from "zod";
import { timestamp } from "./models.js";

/** What a user agent says, read by the server (services/user-agent.ts); null when it does not say. */
const deviceFields = {
  browser: z.string().nullable(),
  os: z.string().nullable(),
  ipAddress: z.string().nullable(),
};

/** One sign-in of the caller's account, from the audit trail. */
export const signInActivityModel = z.object({
  at: timestamp,
  /** `challenged`: the password was right and a second factor was asked for; `failure`: refused (a wrong password). */
  outcome: z.enum(["success", "challenged", "failure"]),
  /** `email`, `social`, `passkey`, ... (docs/audit.md). */
  method: z.string().nullable(),
  ...deviceFields,
});

/** One live session of the caller: the devices signed in now. `id` revokes it (POST /revoke-session `token`). */
export const activeDeviceModel = z.object({
  id: z.string(),
  signedInAt: timestamp,
  lastActiveAt: timestamp,
  current: z.boolean(),
  ...deviceFields,
});

export const securityActivityReply = z.object({
  signIns: z.array(signInActivityModel),
  devices: z.array(activeDeviceModel),
  /**
   * Unused backup codes of the account's two-factor; null while two-factor is off. Optional: servers
   * before issue 31 do not send it (docs/wire-decisions.md).
   */
  backupCodesRemaining: z.number().int().nullable().optional(),
});
export type SecurityActivity = z.output<typeof securityActivityReply>;

export const secureAccountBody = z.object({ token: z.string().min(1).max(200) });
export const secureAccountReply = z.object({
  status: z.literal(true),
  /** A password-reset token for POST /reset-password (what the reset link would carry). */
  resetToken: z.string(),
});
