import { expect } from "vitest";
import { createOrganization } from "./organization.js";
import type { TestServer } from "./server.js";

/** A SCIM answer: its status, its media type, its JSON (null when empty). */
export interface ScimResponse {
  status: number;
  contentType: string | null;
  body: any;
}

/**
 * A call to `origin`'s /scim/v2 as an identity provider makes it: the connection's bearer token (none
 * when null), the SCIM media type when there is a body; an object body is sent as JSON, a string as is.
 */
export async function scimCall(
  origin: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ScimResponse> {
  const response = await fetch(`${origin}/api/auth/scim/v2${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/scim+json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: text ? JSON.parse(text) : null,
  };
}

/** A new organization with an owner, and a SCIM token for a connection `providerId` of it. */
export async function scimConnectedOrganization(
  server: TestServer,
  providerId: string,
  options: { linkExistingMembers?: boolean } = {},
) {
  const org = await createOrganization(server);
  const res = await org.owner.browser.post("/scim/generate-token", {
    providerId,
    organizationId: org.organizationId,
    ...options,
  });
  expect(res.status).toBe(201);
  return { ...org, token: res.body.scimToken as string };
}
