import { z } from "zod";
import { invalidPath, invalidSyntax, invalidValue, ScimError } from "./errors.js";
import { attribute, isObject, operationsOf, text } from "./input.js";

/**
 * What the directory says about a user, as Gatehouse keeps it: a User resource (POST, PUT) or a
 * PATCH applied to the current state ends here. Pure: no database.
 */
export interface UserDraft {
  userName: string;
  /** Lowercased; the primary email, else the first, else the userName. */
  email: string;
  name: string;
  externalId: string | null;
  active: boolean;
}

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";

/**
 * The User schema's attributes (RFC 7643 section 4.1, with the common ones), lower-cased, as
 * SCIM names are case-insensitive. Those Gatehouse keeps are mapped; the rest are accepted and
 * ignored, as are extension schemas (`urn:...`). A name outside the schema is refused.
 */
const STORED = new Set(["username", "name", "displayname", "externalid", "active", "emails"]);
const IGNORED = new Set([
  "schemas",
  "id",
  "meta",
  "nickname",
  "profileurl",
  "title",
  "usertype",
  "preferredlanguage",
  "locale",
  "timezone",
  "password",
  "phonenumbers",
  "ims",
  "photos",
  "addresses",
  "groups",
  "entitlements",
  "roles",
  "x509certificates",
]);
const NAME_PARTS = new Set([
  "formatted",
  "givenname",
  "familyname",
  "middlename",
  "honorificprefix",
  "honorificsuffix",
]);

const emailFormat = z.email();

function email(value: unknown): string {
  const address = text(value, "The email").toLowerCase();
  if (!emailFormat.safeParse(address).success)
    throw invalidValue("The user's email (or userName) is not an email address");
  return address;
}

/** Booleans, and the "True"/"False" strings Entra ID sends for them. */
function bool(value: unknown, what: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw invalidValue(`${what} must be a boolean`);
}

function knownOrRefused(name: string): void {
  const lower = name.toLowerCase();
  if (lower.startsWith("urn:") || STORED.has(lower) || IGNORED.has(lower)) return;
  throw invalidSyntax("The request names an attribute the User schema does not have");
}

/** The address an `emails` value gives: its primary entry's, else its first's. */
function emailOf(emails: unknown): string | undefined {
  if (emails === undefined || emails === null) return undefined;
  if (!Array.isArray(emails)) throw invalidValue("emails must be a list");
  const entries = emails.filter(isObject);
  const chosen = entries.find((entry) => attribute(entry, "primary") === true) ?? entries[0];
  return chosen === undefined ? undefined : email(attribute(chosen, "value"));
}

/** The display name a `name` object gives: formatted, else given and family names joined. */
function nameOf(name: unknown): string | undefined {
  if (name === undefined || name === null) return undefined;
  if (!isObject(name)) throw invalidValue("name must be an object");
  for (const key of Object.keys(name)) {
    if (!NAME_PARTS.has(key.toLowerCase()))
      throw invalidSyntax("The request names an attribute the User schema does not have");
  }
  const formatted = attribute(name, "formatted");
  if (typeof formatted === "string" && formatted.trim() !== "") return text(formatted, "name.formatted");
  const parts = [attribute(name, "givenname"), attribute(name, "familyname")].filter(
    (part): part is string => typeof part === "string" && part.trim() !== "",
  );
  return parts.length > 0 ? text(parts.join(" "), "name") : undefined;
}

/**
 * A PATCH of name over the current display name: parts left out keep their value (RFC 7644 section
 * 3.5.2.3). Only the display name is kept, so its first word stands for the given name and the rest
 * for the family name.
 */
function patchedName(current: string, name: Record<string, unknown>): string | undefined {
  const [given = "", ...family] = current.trim().split(/\s+/);
  const parts = Object.fromEntries(Object.entries(name).map(([key, value]) => [key.toLowerCase(), value]));
  return nameOf({ givenname: given, familyname: family.join(" "), ...parts });
}

/** A whole User resource (POST, PUT): userName required; what it leaves out takes its default. */
export function parseUserResource(body: unknown): UserDraft {
  if (!isObject(body)) throw invalidSyntax("The body must be a JSON object");
  const schemas = attribute(body, "schemas");
  if (!Array.isArray(schemas) || !schemas.includes(USER_SCHEMA)) {
    throw invalidSyntax(`schemas must include ${USER_SCHEMA}`);
  }
  for (const key of Object.keys(body)) knownOrRefused(key);
  const userName = text(attribute(body, "username"), "userName");
  const address = emailOf(attribute(body, "emails")) ?? email(userName);
  const externalId = attribute(body, "externalid");
  const displayName = attribute(body, "displayname");
  const active = attribute(body, "active");
  return {
    userName,
    email: address,
    name:
      (typeof displayName === "string" && displayName.trim() !== "" ? text(displayName, "displayName") : undefined) ??
      nameOf(attribute(body, "name")) ??
      userName,
    externalId: externalId === undefined || externalId === null ? null : text(externalId, "externalId"),
    active: active === undefined || active === null ? true : bool(active, "active"),
  };
}

/** A path's attribute, lower-cased, without a value filter: `emails[type eq "work"].value` -> emails, value. */
function splitPath(path: string): { root: string; sub: string | undefined } {
  const trimmed = path.trim();
  if (trimmed.toLowerCase().startsWith("urn:")) return { root: "urn:", sub: undefined };
  const match = /^([A-Za-z][\w-]*)(\[[^\]]*\])?(?:\.([A-Za-z][\w-]*))?$/.exec(trimmed);
  if (!match) throw invalidPath("The path is not a valid attribute path");
  return { root: (match[1] ?? "").toLowerCase(), sub: match[3]?.toLowerCase() };
}

/** Sets one attribute of the draft (add and replace are the same for single-valued attributes). */
function set(draft: UserDraft, path: string, value: unknown): void {
  const { root, sub } = splitPath(path);
  if (root === "urn:" || IGNORED.has(root)) return;
  switch (root) {
    case "active":
      draft.active = bool(value, "active");
      return;
    case "username":
      draft.userName = text(value, "userName");
      return;
    case "externalid":
      draft.externalId = value === null ? null : text(value, "externalId");
      return;
    case "displayname":
      draft.name = text(value, "displayName");
      return;
    case "name":
      if (sub === undefined)
        draft.name = (isObject(value) ? patchedName(draft.name, value) : nameOf(value)) ?? draft.name;
      else if (!NAME_PARTS.has(sub)) throw invalidPath("The path is not an attribute of name");
      else if (sub === "formatted") draft.name = text(value, "name.formatted");
      else if (sub === "givenname" || sub === "familyname")
        draft.name = patchedName(draft.name, { [sub]: text(value, path.trim()) }) ?? draft.name;
      return;
    case "emails":
      if (sub === undefined) draft.email = emailOf(Array.isArray(value) ? value : [value]) ?? draft.email;
      else if (sub === "value") draft.email = email(value);
      else if (sub !== "type" && sub !== "primary" && sub !== "display")
        throw invalidPath("The path is not an attribute of emails");
      return;
    default:
      throw invalidPath("The path names an attribute the User schema does not have");
  }
}

function remove(draft: UserDraft, path: string): void {
  const { root } = splitPath(path);
  if (root === "urn:" || IGNORED.has(root)) return;
  switch (root) {
    case "externalid":
      draft.externalId = null;
      return;
    case "name":
    case "displayname":
      draft.name = draft.userName;
      return;
    case "username":
    case "emails":
    case "active":
      throw new ScimError(400, "This attribute is required and cannot be removed", "mutability");
    default:
      throw invalidPath("The path names an attribute the User schema does not have");
  }
}

/** A PATCH (RFC 7644 section 3.5.2) applied to the current state: a new draft, the old one untouched. */
export function applyUserPatch(caller: UserDraft, body: unknown): UserDraft {
  const draft = { ...caller };
  for (const { op, path, value } of operationsOf(body)) {
    if (op === "remove") {
      if (path === undefined) throw new ScimError(400, "remove needs a path", "noTarget");
      remove(draft, path);
    } else if (path !== undefined) {
      set(draft, path, value);
    } else {
      // No path (Okta's `{"op":"replace","value":{"active":false}}`): each key is a path of its own.
      if (!isObject(value)) throw invalidValue("An operation without a path needs an object value");
      for (const [key, inner] of Object.entries(value)) set(draft, key, inner);
    }
  }
  return draft;
}

/**
 * The values the options' scim.userFields mapping takes from a User resource: field name -> the
 * attribute's value (a core attribute, or `<extension urn>:<attribute>`). Absent attributes are left
 * out, so the field's default or requirement decides (services/additional-fields.ts).
 */
export function mappedFieldValues(body: unknown, mapping: Readonly<Record<string, string>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (!isObject(body)) return values;
  for (const [field, path] of Object.entries(mapping)) {
    let value: unknown;
    if (path.toLowerCase().startsWith("urn:")) {
      const cut = path.lastIndexOf(":");
      const extension = attribute(body, path.slice(0, cut).toLowerCase());
      value = isObject(extension) ? attribute(extension, path.slice(cut + 1).toLowerCase()) : undefined;
    } else {
      value = attribute(body, path.toLowerCase());
    }
    if (value !== undefined && value !== null) values[field] = value;
  }
  return values;
}
