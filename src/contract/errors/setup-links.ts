import { defineErrors } from "./define.js";

/** Setup links (docs/sso.md, "Let the customer set it up"). */
export const setupLinkErrors = defineErrors({
  // One answer for unknown, expired and revoked: the holder of a dead link learns nothing more.
  SETUP_LINK_INVALID: { message: "This setup link is not valid: it may have expired or been revoked", status: 401 },
  SETUP_LINK_SCOPE_DENIED: { message: "This setup link does not let you configure this", status: 403 },
  SETUP_LINK_OTHER_ORGANIZATION: { message: "This setup link is for another organization", status: 403 },
  SETUP_LINK_OWNER_REQUIRED: { message: "Only the organization's owners may manage its setup links", status: 403 },
  SETUP_LINK_NOT_FOUND: { message: "No such setup link", status: 404 },
});
