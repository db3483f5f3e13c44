import type { HasCode } from "./messages.js";
import type { FieldMessage } from "./schemas.js";

/** The Policy form's settings, as its field errors name them. */
export type PolicyFieldName =
  | "requireTwoFactor"
  | "requireSSO"
  | "breakGlassUserIds"
  | "maxSessionAge"
  | "idleTimeout"
  | "methods";

const fieldMessages: Record<PolicyFieldName, FieldMessage> = {
  requireTwoFactor: { key: "policy.error.invalid" },
  requireSSO: { key: "policy.error.invalid" },
  breakGlassUserIds: { key: "policy.error.breakGlass" },
  maxSessionAge: { key: "policy.error.maxSessionAge" },
  idleTimeout: { key: "policy.error.idleTimeout" },
  methods: { key: "policy.error.methods" },
};

/**
 * Which fields the server's refusal is about: VALIDATION_ERROR names them (`[body.idleTimeout] ...`),
 * the policy's own codes each belong to one setting. The rest is the form's error.
 */
export function serverFieldErrors(error: HasCode | null): {
  fields: Partial<Record<PolicyFieldName, FieldMessage>>;
  rest: HasCode | null;
} {
  if (!error) return { fields: {}, rest: null };
  if (error.code === "BREAK_GLASS_USER_MUST_BE_AN_OWNER")
    return { fields: { breakGlassUserIds: { key: "error.BREAK_GLASS_USER_MUST_BE_AN_OWNER" } }, rest: null };
  if (error.code === "SSO_CONNECTION_REQUIRED")
    return { fields: { requireSSO: { key: "error.SSO_CONNECTION_REQUIRED" } }, rest: null };
  if (error.code !== "VALIDATION_ERROR") return { fields: {}, rest: error };
  const fields: Partial<Record<PolicyFieldName, FieldMessage>> = {};
  for (const [, name] of (error.message ?? "").matchAll(/\[body\.(\w+)/g)) {
    const field = (name === "allowedSignInMethods" ? "methods" : name) as PolicyFieldName;
    if (field in fieldMessages) fields[field] = fieldMessages[field];
  }
  return Object.keys(fields).length ? { fields, rest: null } : { fields: {}, rest: error };
}
