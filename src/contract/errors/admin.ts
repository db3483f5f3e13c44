import { defineErrors } from "./define.js";

/** Administration and signed tokens (SPEC section 6; filled in by the administration issue). */
export const adminErrors = defineErrors({
  YOU_ARE_NOT_ALLOWED_TO_PERFORM_THIS_ACTION: { message: "You are not allowed to perform this action", status: 403 },
  BANNED_USER: { message: "You have been banned from this application", status: 403 },
});
