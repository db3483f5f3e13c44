import type { UpdateUserBody } from "../../contract/account.js";
import type { User } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { type FieldSource, readFieldInput } from "./additional-fields.js";
import { updateUserRow } from "./hooked-writes.js";

/** Fields the server owns: sending a truthy value for one is refused rather than ignored. */
const SERVER_OWNED_FIELDS = ["isAnonymous", "role", "banned", "banReason", "banExpires"] as const;

/** Updates the caller's name and image. Email has its own verified flow (change-email). */
export async function updateUser(
  ctx: AuthContext,
  userId: string,
  body: UpdateUserBody,
  source: FieldSource = "client",
): Promise<User> {
  if ("email" in body && body.email !== undefined) throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
  for (const field of SERVER_OWNED_FIELDS) {
    if (body[field]) throw new AuthError("FIELD_NOT_ALLOWED", { message: `${field} is not allowed to be set` });
  }
  const patch: { name?: string; image?: string | null } = {};
  if (body.name !== undefined) patch.name = body.name.trim();
  if (body.image !== undefined) patch.image = body.image;
  const values = readFieldInput(ctx.fields.user, body, { creating: false, source });
  if (Object.keys(patch).length === 0 && Object.keys(values).length === 0) throw new AuthError("NO_FIELDS_TO_UPDATE");
  const user = await ctx.webhooks.atomic(
    ctx.db,
    "user.updated",
    async (db) => {
      const updated = await updateUserRow(ctx, db, userId, patch, ctx.now(), { spec: ctx.fields.user, values });
      await ctx.webhooks.enqueue(db, "user.updated", updated);
      return updated;
    },
    { subjectId: userId },
  );
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}
