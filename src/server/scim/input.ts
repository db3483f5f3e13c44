import { invalidPath, invalidSyntax, invalidValue } from "./errors.js";

/** The parts of reading a SCIM resource or PATCH that Users and Groups share (RFC 7644). */

export const PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const MAX_TEXT = 256;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A case-insensitive read of one attribute. */
export function attribute(resource: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(resource).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : resource[key];
}

export function text(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > MAX_TEXT) {
    throw invalidValue(`${what} must be a non-empty string of at most ${MAX_TEXT} characters`);
  }
  return value.trim();
}

export type Operation = { op: "add" | "replace" | "remove"; path: string | undefined; value: unknown };

/** A PatchOp body's operations, checked: 1 to 100, each add, replace or remove with a non-empty path if any. */
export function operationsOf(body: unknown): Operation[] {
  if (!isObject(body)) throw invalidSyntax("The body must be a JSON object");
  const schemas = attribute(body, "schemas");
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA)) {
    throw invalidSyntax(`schemas must include ${PATCH_OP_SCHEMA}`);
  }
  const operations = attribute(body, "operations");
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 100) {
    throw invalidSyntax("Operations must list 1 to 100 operations");
  }
  return operations.map((operation) => {
    if (!isObject(operation)) throw invalidSyntax("Each operation must be an object");
    // Entra ID capitalises op ("Replace"); RFC 7644 names them in lower case.
    const op = attribute(operation, "op");
    const name = typeof op === "string" ? op.toLowerCase() : "";
    if (name !== "add" && name !== "replace" && name !== "remove") {
      throw invalidSyntax("op must be add, replace or remove");
    }
    const path = attribute(operation, "path");
    if (path !== undefined && (typeof path !== "string" || path.trim() === "")) {
      throw invalidPath("path must be a non-empty string");
    }
    return { op: name, path: path as string | undefined, value: attribute(operation, "value") };
  });
}
