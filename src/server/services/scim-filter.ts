import type { ScimUserFilter } from "../store/scim.js";
import { invalidFilter } from "./scim-errors.js";

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
  if (filter === undefined || filter.trim() === "") return null;
  const match = EQUALITY.exec(filter);
  if (!match) throw invalidFilter('The filter is not of the form: attribute eq "value"');
  const [, name = "", operator = "", quoted = ""] = match;
  if (operator.toLowerCase() !== "eq") throw invalidFilter("Only the eq operator is supported");
  const attribute = FILTERABLE[name.toLowerCase()];
  if (!attribute) throw invalidFilter("Users can be filtered on userName, externalId or id only");
  let value: unknown;
  try {
    value = JSON.parse(`"${quoted}"`);
  } catch {
    throw invalidFilter("The filter's value is not a valid string");
  }
  return { attribute, value: value as string };
}
