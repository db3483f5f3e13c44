import { z } from "zod";
import { queryInt, userName } from "./fields.js";

/** Request bodies and queries of the /admin/ routes (better-auth's admin plugin paths and fields). */
const roleInput = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const userId = z.string().min(1);

export const createUserBody = z.object({
  email: z.string(),
  password: z.string().optional(),
  name: userName,
  role: roleInput.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const listUsersQuery = z.object({
  searchValue: z.string().optional(),
  searchField: z.enum(["email", "name"]).optional(),
  searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
  limit: queryInt(1000).optional(),
  offset: queryInt().optional(),
  sortBy: z.enum(["createdAt", "updatedAt", "email", "name", "role"]).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
  filterField: z.enum(["role", "banned", "emailVerified", "email", "name", "id"]).optional(),
  filterValue: z.string().optional(),
  filterOperator: z.enum(["eq", "ne"]).optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuery>;

export const getUserQuery = z.object({ id: userId });
export const userIdBody = z.object({ userId });
export const setRoleBody = z.object({ userId, role: roleInput });
/** A ban can be set to lift itself after at most 100 years; longer is a permanent ban (no expiry). */
const MAX_BAN_SECONDS = 100 * 365 * 86400;
export const banUserBody = z.object({
  userId,
  banReason: z.string().max(500).optional(),
  /** Seconds until the ban lifts itself; none for a permanent ban. */
  banExpiresIn: z.number().int().positive().max(MAX_BAN_SECONDS).optional(),
});
export const updateUserAsAdminBody = z.object({
  userId,
  data: z.record(z.string(), z.unknown()),
});
export const setUserPasswordBody = z.object({ userId, newPassword: z.string().min(1) });
export const revokeUserSessionBody = z.object({ sessionToken: z.string().min(1) });
export const adminHasPermissionBody = z.object({
  userId: z.string().optional(),
  role: z.string().optional(),
  permissions: z.record(z.string(), z.array(z.string())),
});
export const listAuditLogQuery = z.object({
  limit: queryInt(500).optional(),
  offset: queryInt().optional(),
  targetUserId: z.string().optional(),
  actorUserId: z.string().optional(),
});
/** list-user-memberships and list-user-accounts: whose rows to read. */
export const userIdQuery = z.object({ userId });
