import { errorCatalogue } from "../contract/errors/index.js";
import { isMessageKey, type Translate } from "../i18n/index.js";

/**
 * The one place codes become words on screen. A code with a catalogue entry `error.<CODE>` (src/i18n)
 * is said in the application's voice and language; other codes keep the server's message, which may
 * be more precise than the contract's (English either way).
 */

export interface HasCode {
  code?: string;
  message?: string;
}

/** Admin screens speak of the user, not of "you": codes whose everyday words would mislead there. */
const adminCodes: Record<string, string> = {
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "ADMIN_EMAIL_TAKEN",
  USER_NOT_FOUND: "ADMIN_USER_NOT_FOUND",
};

/** The error as an admin form shows it. */
export function adminError(error: HasCode | null): HasCode | null {
  const code = error?.code && adminCodes[error.code];
  return code ? { ...error, code } : error;
}

/** Enrolling a factor: "not verified" there means verify before adding one, not the sign-in's resent link. */
export function enrolError(error: HasCode | null): HasCode | null {
  return error?.code === "EMAIL_NOT_VERIFIED" ? { ...error, code: "ENROL_EMAIL_NOT_VERIFIED" } : error;
}

/** Text for an error code or an error object from the client. */
export function messageFor(error: HasCode | string | null | undefined, t: Translate): string {
  if (!error) return "";
  const code = typeof error === "string" ? error : error.code;
  const key = code ? `error.${code}` : "";
  if (isMessageKey(key)) return t(key);
  // The server's own words first: they may name the fault ("a DOCTYPE: entities are refused").
  if (typeof error !== "string" && error.message) return error.message;
  if (code && code in errorCatalogue) return errorCatalogue[code as keyof typeof errorCatalogue].message;
  return t("common.error.generic");
}
