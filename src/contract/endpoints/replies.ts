import { z } from "zod";
import { sessionModel, userModel } from "../models.js";

/** Small reply shapes several endpoints share. */
export const statusReply = z.object({ status: z.boolean() });
export const successReply = z.object({ success: z.boolean() });
export const messageReply = z.object({ message: z.string() });
export const tokenAndUserReply = z.object({ token: z.string().nullable(), user: userModel });
export const redirectReply = z.object({ url: z.string(), redirect: z.boolean() });
export const permissionReply = z.object({ error: z.null(), success: z.boolean() });
export const userReply = z.object({ user: userModel });
export const sessionAndUserReply = z.object({ session: sessionModel, user: userModel });
/**
 * Present (true) when a mailbox proof adopted an account whose address was never proven and removed
 * every credential set up on it, so the app can say so (a mail tells the owner too).
 */
export const credentialsRemovedField = { credentialsRemoved: z.literal(true).optional() };
