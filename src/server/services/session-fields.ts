import type { UpdateSessionBody } from "../../contract/account.js";
import { AuthError } from "../errors.js";

/** Session fields the server owns (organization plugin, impersonation): input:false, never a client's to set. */
const SERVER_OWNED_SESSION_FIELDS = ["activeOrganizationId", "activeTeamId", "impersonatedBy"] as const;

/**
 * POST /update-session sets additional session fields with input:true, and only those. Gatehouse
 * has none (the options define no additional session fields), so every call is refused: a truthy
 * server-owned field as FIELD_NOT_ALLOWED (as update-user does), anything else as nothing to update.
 */
export function refuseSessionUpdate(body: UpdateSessionBody): never {
  for (const field of SERVER_OWNED_SESSION_FIELDS) {
    if (body[field]) throw new AuthError("FIELD_NOT_ALLOWED", { message: `${field} is not allowed to be set` });
  }
  throw new AuthError("NO_FIELDS_TO_UPDATE");
}
