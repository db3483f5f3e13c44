import { invalidPath, invalidSyntax, invalidValue, ScimError } from "./errors.js";
import { attribute, isObject, operationsOf, text } from "./input.js";

/**
 * What the directory says about a group, as Gatehouse keeps it: its name, externalId and member
 * ids. A Group resource (POST, PUT) or a PATCH applied to the current state ends here, in the forms
 * Okta and Entra ID send (docs/scim.md). Pure: no database.
 */
export interface GroupDraft {
  displayName: string;
  externalId: string | null;
  /** User ids, in the order first named; no repeats. */
  members: string[];
}

export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";

/** The most members one group holds (the body limit allows a little more than this many ids). */
export const MAX_GROUP_MEMBERS = 1000;

/** The Group schema's attributes: kept, or accepted and ignored; anything else is refused. */
const KEPT = new Set(["displayname", "externalid", "members"]);
const IGNORED = new Set(["schemas", "id", "meta"]);
const MEMBER_PARTS = new Set(["value", "display", "$ref", "type"]);

function knownOrRefused(name: string): void {
  const lower = name.toLowerCase();
  if (lower.startsWith("urn:") || KEPT.has(lower) || IGNORED.has(lower)) return;
  throw invalidSyntax("The request names an attribute the Group schema does not have");
}

/** The user ids a `members` value names: `[{value, display?, $ref?, type?}]` (or one such object). */
function memberIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const entries = Array.isArray(value) ? value : [value];
  const ids: string[] = [];
  for (const entry of entries) {
    if (!isObject(entry)) throw invalidValue("Each member must be an object with a value");
    for (const key of Object.keys(entry)) {
      if (!MEMBER_PARTS.has(key.toLowerCase()))
        throw invalidSyntax("The request names an attribute a group member does not have");
    }
    const type = attribute(entry, "type");
    if (type !== undefined && type !== null && (typeof type !== "string" || type.toLowerCase() !== "user")) {
      throw invalidValue("Only users can be members of a group (nested groups are not supported)");
    }
    ids.push(text(attribute(entry, "value"), "A member's value"));
  }
  return ids;
}

function withinLimit(members: string[]): string[] {
  const unique = [...new Set(members)];
  if (unique.length > MAX_GROUP_MEMBERS) {
    throw invalidValue(`A group holds at most ${MAX_GROUP_MEMBERS} members`);
  }
  return unique;
}

/** A whole Group resource (POST, PUT): displayName required. */
export function parseGroupResource(body: unknown): GroupDraft {
  if (!isObject(body)) throw invalidSyntax("The body must be a JSON object");
  const schemas = attribute(body, "schemas");
  if (!Array.isArray(schemas) || !schemas.includes(GROUP_SCHEMA)) {
    throw invalidSyntax(`schemas must include ${GROUP_SCHEMA}`);
  }
  for (const key of Object.keys(body)) knownOrRefused(key);
  const externalId = attribute(body, "externalid");
  return {
    displayName: text(attribute(body, "displayname"), "displayName"),
    externalId: externalId === undefined || externalId === null ? null : text(externalId, "externalId"),
    members: withinLimit(memberIds(attribute(body, "members"))),
  };
}

type Target = { attribute: "displayname" | "externalid" | "members" | "ignored" } | { attribute: "member"; id: string };

/**
 * A Group PATCH path: `displayName`, `externalId`, `members`, or one member by Okta's value filter
 * `members[value eq "<id>"]` (optionally followed by `.value`).
 */
function targetOf(path: string): Target {
  const trimmed = path.trim();
  if (trimmed.toLowerCase().startsWith("urn:")) return { attribute: "ignored" };
  const filtered = /^members\s*\[\s*value\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\](?:\.value)?$/i.exec(trimmed);
  if (filtered) {
    let id: unknown;
    try {
      id = JSON.parse(`"${filtered[1] ?? ""}"`);
    } catch {
      throw invalidPath("The member filter's value is not a valid string");
    }
    return { attribute: "member", id: text(id, "A member's value") };
  }
  if (/\[/.test(trimmed)) throw invalidPath('Members can be named only as members[value eq "<id>"]');
  const lower = trimmed.toLowerCase();
  if (lower === "displayname" || lower === "externalid" || lower === "members") return { attribute: lower };
  if (lower === "id" || lower === "meta" || lower === "schemas") return { attribute: "ignored" };
  throw invalidPath("The path names an attribute the Group schema does not have");
}

function apply(draft: GroupDraft, op: "add" | "replace", target: Target, value: unknown): void {
  switch (target.attribute) {
    case "ignored":
      return;
    case "displayname":
      draft.displayName = text(value, "displayName");
      return;
    case "externalid":
      draft.externalId = value === null ? null : text(value, "externalId");
      return;
    case "members":
      // add merges (Okta and Entra add members this way); replace sets the whole list.
      draft.members = op === "add" ? [...draft.members, ...memberIds(value)] : memberIds(value);
      return;
    case "member":
      throw invalidPath("A single member can only be removed; add members with path members");
  }
}

/** A PATCH (RFC 7644 section 3.5.2) applied to the current state: a new draft, the old one untouched. */
export function applyGroupPatch(current: GroupDraft, body: unknown): GroupDraft {
  const draft: GroupDraft = { ...current, members: [...current.members] };
  for (const { op, path, value } of operationsOf(body)) {
    if (op === "remove") {
      if (path === undefined) throw new ScimError(400, "remove needs a path", "noTarget");
      const target = targetOf(path);
      if (target.attribute === "member") {
        draft.members = draft.members.filter((id) => id !== target.id);
      } else if (target.attribute === "members") {
        // Entra ID names the members to remove in value; no value removes them all (RFC 7644).
        const gone = value === undefined || value === null ? null : new Set(memberIds(value));
        draft.members = gone ? draft.members.filter((id) => !gone.has(id)) : [];
      } else if (target.attribute === "externalid") {
        draft.externalId = null;
      } else if (target.attribute === "displayname") {
        throw new ScimError(400, "displayName is required and cannot be removed", "mutability");
      }
    } else if (path !== undefined) {
      apply(draft, op, targetOf(path), value);
    } else {
      // No path: each key of the value is a path of its own (Okta's rename sends {id, displayName}).
      if (!isObject(value)) throw invalidValue("An operation without a path needs an object value");
      for (const [key, inner] of Object.entries(value)) apply(draft, op, targetOf(key), inner);
    }
  }
  draft.members = withinLimit(draft.members);
  return draft;
}
