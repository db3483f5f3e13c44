import type { ScimUserFilter } from "./connections.store.js";
import { invalidFilter } from "./errors.js";
import type { ScimGroupFilter } from "./groups.store.js";

/** The attributes a User list may be filtered on, by their lower-cased SCIM names. */
const FILTERABLE: Record<string, ScimUserFilter["attribute"]> = {
  username: "userName",
  externalid: "externalId",
  id: "id",
};

/** `attribute eq "value"`: the one form identity providers send to find a user before creating them. */
const EQUALITY = /^\s*([A-Za-z][\w.:-]*)\s+([A-Za-z]+)\s+"((?:[^"\\]|\\.)*)"\s*$/;

/**
 * A filter parameter as an equality on one supported attribute; null when there is none. Anything
 * else (other operators, `and`/`or`, unknown attributes, broken quoting) is SCIM's invalidFilter.
 */
export function parseUserFilter(filter: string | undefined): ScimUserFilter | null {
  return parseFilter(filter, FILTERABLE, "Users can be filtered on userName, externalId or id only");
}

const GROUP_FILTERABLE: Record<string, ScimGroupFilter["attribute"]> = {
  displayname: "displayName",
  externalid: "externalId",
  id: "id",
};

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
/** Entra ID's membership check: `id eq "<group>" and members eq "<user>"` (or `members[value eq "<user>"]`). */
const MEMBERSHIP = new RegExp(
  `^\\s*id\\s+eq\\s+${QUOTED}\\s+and\\s+members(?:\\s+eq\\s+${QUOTED}|\\s*\\[\\s*value\\s+eq\\s+${QUOTED}\\s*\\])\\s*$`,
  "i",
);

function unquoted(quoted: string): string {
  try {
    return JSON.parse(`"${quoted}"`) as string;
  } catch {
    throw invalidFilter("The filter's value is not a valid string");
  }
}

/**
 * A Groups list filter: `displayName eq`, `externalId eq` or `id eq`, or Entra ID's check of one
 * member: `id eq "<group>" and members eq "<user>"`.
 */
export function parseGroupFilter(filter: string | undefined): ScimGroupFilter | null {
  const membership = filter === undefined ? null : MEMBERSHIP.exec(filter);
  if (membership) {
    return {
      attribute: "id",
      value: unquoted(membership[1] ?? ""),
      member: unquoted(membership[2] ?? membership[3] ?? ""),
    };
  }
  return parseFilter(filter, GROUP_FILTERABLE, "Groups can be filtered on displayName, externalId or id only");
}

function parseFilter<A extends string>(
  filter: string | undefined,
  filterable: Record<string, A>,
  unknownAttribute: string,
): { attribute: A; value: string } | null {
  if (filter === undefined || filter.trim() === "") return null;
  const match = EQUALITY.exec(filter);
  if (!match) throw invalidFilter('The filter is not of the form: attribute eq "value"');
  const [, name = "", operator = "", quoted = ""] = match;
  if (operator.toLowerCase() !== "eq") throw invalidFilter("Only the eq operator is supported");
  const attribute = Object.hasOwn(filterable, name.toLowerCase()) ? filterable[name.toLowerCase()] : undefined;
  if (!attribute) throw invalidFilter(unknownAttribute);
  let value: unknown;
  try {
    value = JSON.parse(`"${quoted}"`);
  } catch {
    throw invalidFilter("The filter's value is not a valid string");
  }
  return { attribute, value: value as string };
}
