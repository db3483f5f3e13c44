import type { UpdateSessionBody } from "../../contract/account.js";
import type { Session, SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { mapSession, updateSessionFields } from "../store/sessions.js";
import { toDate } from "../store/values.js";
import { readFieldInput } from "./additional-fields.js";

/** Session fields the server owns (organization plugin, impersonation): input:false, never a client's to set. */
const SERVER_OWNED_SESSION_FIELDS = ["activeOrganizationId", "activeTeamId", "impersonatedBy"] as const;

/**
 * POST /update-session sets the app's own session fields (session.additionalFields) with input
 * true, and only those: a truthy server-owned field is FIELD_NOT_ALLOWED (as update-user does), a
 * body with none of the fields is NO_FIELDS_TO_UPDATE.
 */
export async function updateSession(
  ctx: AuthContext,
  caller: SessionWithUser,
  body: UpdateSessionBody,
): Promise<{ session: Session }> {
  for (const field of SERVER_OWNED_SESSION_FIELDS) {
    if (body[field]) throw new AuthError("FIELD_NOT_ALLOWED", { message: `${field} is not allowed to be set` });
  }
  const values = readFieldInput(ctx.fields.session, body, { creating: false, source: "client" });
  if (Object.keys(values).length === 0) throw new AuthError("NO_FIELDS_TO_UPDATE");
  const row = await updateSessionFields(ctx.db, caller.session.id, { spec: ctx.fields.session, values }, ctx.now());
  if (!row) throw new AuthError("UNAUTHORIZED");
  return { session: mapSession(row, caller.session.token, toDate, ctx.fields.session) };
}
