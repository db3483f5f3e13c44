import { defineErrors } from "./define.js";

/** Administration (SPEC section 6's admin permission set) and signed tokens. */
export const adminErrors = defineErrors({
  UNVERIFIED_ACCOUNT_EXISTS: {
    message: "An account with this email exists, but its address was never verified: anyone could have registered it",
    status: 409,
  },
  BANNED_USER: { message: "You have been banned from this application", status: 403 },
  YOU_CANNOT_BAN_YOURSELF: { message: "You cannot ban yourself", status: 400 },
  YOU_CANNOT_REMOVE_YOURSELF: { message: "You cannot remove yourself", status: 400 },
  YOU_CANNOT_IMPERSONATE_ADMINS: { message: "You cannot impersonate admins", status: 403 },
  YOU_CANNOT_MANAGE_ADMINS: {
    message: "You cannot change, ban or remove another admin",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: { message: "You are not allowed to change users role", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: { message: "You are not allowed to create users", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: { message: "You are not allowed to list users", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: { message: "You are not allowed to get user", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: { message: "You are not allowed to update users", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: { message: "You are not allowed to list users sessions", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: { message: "You are not allowed to ban users", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: { message: "You are not allowed to impersonate users", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: {
    message: "You are not allowed to revoke users sessions",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: { message: "You are not allowed to delete users", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: { message: "You are not allowed to set users password", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_LOG: { message: "You are not allowed to read the audit log", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_OAUTH_CLIENTS: {
    message: "You are not allowed to manage OAuth clients",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE: {
    message: "You are not allowed to set a non-existent role value",
    status: 400,
  },
  NO_DATA_TO_UPDATE: { message: "No data to update", status: 400 },
  PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER: {
    message: "Password cannot be updated through update-user. Use the set-user-password endpoint instead",
    status: 400,
  },
  NOT_IMPERSONATING: { message: "You are not impersonating anyone", status: 400 },
  ADMIN_SESSION_NOT_FOUND: { message: "Failed to find admin session", status: 400 },
});
