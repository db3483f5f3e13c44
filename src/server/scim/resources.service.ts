import type { ScimUserRow } from "./connections.store.js";
import { GROUP_SCHEMA } from "./group-input.js";
import type { ScimGroupView } from "./groups.service.js";
import { MAX_RESULTS } from "./paging.js";
import { USER_SCHEMA } from "./user-input.js";

/**
 * What the SCIM routes answer: User resources and the discovery documents (RFC 7643 sections 4.1,
 * 5, 6 and 7). Gatehouse keeps a user's userName, one email, one display name, externalId and
 * whether they are a member (active); the documents say exactly that much.
 */
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
const SERVICE_PROVIDER_CONFIG_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

/** The most users one list answers (a larger `count` is lowered to it, RFC 7644 section 3.4.2.4). */

export function userResource(v2Url: string, user: ScimUserRow) {
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(user.externalId === null ? {} : { externalId: user.externalId }),
    userName: user.userName,
    name: { formatted: user.name },
    displayName: user.name,
    emails: [{ value: user.email, type: "work", primary: true }],
    active: user.active,
    meta: {
      resourceType: "User",
      created: user.createdAt.toISOString(),
      lastModified: user.updatedAt.toISOString(),
      location: `${v2Url}/Users/${user.id}`,
    },
  };
}

/** A Group resource; `members` is left out when the directory asked (excludedAttributes=members). */
export function groupResource(v2Url: string, { group, members }: ScimGroupView) {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId === null ? {} : { externalId: group.externalId }),
    displayName: group.displayName,
    ...(members === null
      ? {}
      : {
          members: members.map((member) => ({
            value: member.userId,
            display: member.userName,
            type: "User",
            $ref: `${v2Url}/Users/${member.userId}`,
          })),
        }),
    meta: {
      resourceType: "Group",
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${v2Url}/Groups/${group.id}`,
    },
  };
}

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

export function serviceProviderConfig(v2Url: string) {
  const off = { supported: false };
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUri: "https://datatracker.ietf.org/doc/html/rfc7644",
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: off,
    sort: off,
    etag: off,
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "OAuth Bearer Token",
        description: "The organization's SCIM token, sent as Authorization: Bearer <token>",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${v2Url}/ServiceProviderConfig` },
  };
}

export function userResourceType(v2Url: string) {
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "A member of the organization, provisioned by its directory",
    schema: USER_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: "ResourceType", location: `${v2Url}/ResourceTypes/User` },
  };
}

export function groupResourceType(v2Url: string) {
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "A group of the directory's users; its owner may map it to a role or a team",
    schema: GROUP_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: "ResourceType", location: `${v2Url}/ResourceTypes/Group` },
  };
}

const attr = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "string",
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export function userSchema(v2Url: string) {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: "User",
    description: "User Account",
    attributes: [
      attr("userName", { required: true, uniqueness: "server" }),
      attr("externalId", { caseExact: true }),
      attr("displayName"),
      attr("name", {
        type: "complex",
        subAttributes: [attr("formatted"), attr("givenName"), attr("familyName")],
      }),
      attr("emails", {
        type: "complex",
        multiValued: true,
        subAttributes: [attr("value"), attr("type"), attr("primary", { type: "boolean" })],
      }),
      attr("active", { type: "boolean" }),
    ],
    meta: { resourceType: "Schema", location: `${v2Url}/Schemas/${USER_SCHEMA}` },
  };
}

export function groupSchema(v2Url: string) {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: "Group",
    description: "Group",
    attributes: [
      attr("displayName", { required: true }),
      attr("externalId", { caseExact: true }),
      attr("members", {
        type: "complex",
        multiValued: true,
        subAttributes: [
          attr("value", { mutability: "immutable" }),
          attr("display", { mutability: "readOnly" }),
          attr("type", { mutability: "immutable", canonicalValues: ["User"] }),
          attr("$ref", { type: "reference", referenceTypes: ["User"], mutability: "immutable" }),
        ],
      }),
    ],
    meta: { resourceType: "Schema", location: `${v2Url}/Schemas/${GROUP_SCHEMA}` },
  };
}
