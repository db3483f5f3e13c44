import type { Selectable } from "kysely";
import type { SessionTable, UserTable } from "./schema.js";

/**
 * Rows as the models are made from them (sessions.ts, users.ts), in a module of their own so the read
 * machinery (reads/) can name them without importing the stores that use it.
 */
export type UserRow = Selectable<UserTable>;

/** A session row as the model is made from it (the policy columns of migrations 0024 and 0033 are read apart). */
export type SessionRow = Omit<Selectable<SessionTable>, "signInMethod" | "signInProviderId" | "lastActiveAt">;
