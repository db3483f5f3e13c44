/**
 * An answer in SCIM's own error format (RFC 7644 section 3.12): the protocol routes under
 * /scim/v2 send it as `{schemas, status, scimType?, detail}`. Details never echo the request.
 */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimError extends Error {
  override name = "ScimError";
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, "invalidValue");
export const invalidSyntax = (detail: string) => new ScimError(400, detail, "invalidSyntax");
export const invalidPath = (detail: string) => new ScimError(400, detail, "invalidPath");
export const invalidFilter = (detail: string) => new ScimError(400, detail, "invalidFilter");
export const userNotFound = () => new ScimError(404, "User not found");
export const emailNotOwned = () =>
  new ScimError(
    400,
    "The email of an account the directory linked rather than created cannot be changed",
    "mutability",
  );

export const emailProvenElsewhere = () =>
  new ScimError(
    400,
    "The user's address is outside the organization's verified domains and its owner proved it: the directory cannot move it",
    "mutability",
  );
