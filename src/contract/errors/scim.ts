import { defineErrors } from "./define.js";

/** SCIM connections (docs/scim.md): the management routes under /scim that a signed-in owner calls. */
export const scimErrors = defineErrors({
  SCIM_PROVIDER_NOT_FOUND: { message: "SCIM provider not found", status: 404 },
  SCIM_PROVIDER_ID_INVALID: { message: "Provider id contains forbidden characters", status: 400 },
  SCIM_PROVIDER_ID_TAKEN: { message: "Provider id is already used by another organization", status: 400 },
  SCIM_GROUP_NOT_FOUND: { message: "SCIM group not found", status: 404 },
  SCIM_GROUP_MAPPING_INVALID: {
    message: "A group maps to an organization role or to a team (with an optional team role), not both",
    status: 400,
  },
  SCIM_GROUP_ROLE_NOT_ALLOWED: {
    message: "A directory group may not give the owner role: owners are made in the organization",
    status: 400,
  },
  SCIM_GROUP_MAPPING_REFUSED: { message: "The mapping would leave the organization without an owner", status: 400 },
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM: { message: "Only an owner of the organization can manage SCIM", status: 403 },
});
