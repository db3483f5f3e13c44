import { z } from "zod";
import type { Endpoint } from "./endpoints/define.js";
import { type ErrorCode, errorCatalogue } from "./errors/index.js";

type JsonSchema = Record<string, unknown>;

/** One of the app's own fields (options `*.additionalFields`), as the document describes it. */
export interface DocumentedField {
  type: "string" | "number" | "boolean" | "date";
  required: boolean;
  input: boolean;
  returned: boolean;
}

/** The app's own fields by model, field name -> description. */
export interface DocumentedFields {
  user: Readonly<Record<string, DocumentedField>>;
  session: Readonly<Record<string, DocumentedField>>;
  organization: Readonly<Record<string, DocumentedField>>;
}

type FieldModel = keyof DocumentedFields;

/** Which model an object schema is, by keys only that model (and its extensions) has. */
function modelOf(keys: readonly string[]): FieldModel | null {
  const has = (...names: string[]) => names.every((name) => keys.includes(name));
  if (has("email", "emailVerified", "twoFactorEnabled")) return "user";
  if (has("token", "expiresAt", "ipAddress", "activeOrganizationId")) return "session";
  if (has("slug", "logo", "metadata", "createdAt")) return "organization";
  return null;
}

function fieldSchema(field: DocumentedField): JsonSchema {
  const type = field.type === "date" ? { type: "string", format: "date-time" } : { type: field.type };
  // Rows written before a field existed hold null.
  return { anyOf: [type, { type: "null" }] };
}

/** Adds the model's fields to an object schema: the returned ones to replies, the input ones to bodies. */
function addFields(target: JsonSchema, fields: Readonly<Record<string, DocumentedField>>, io: "input" | "output") {
  const properties = { ...((target.properties as Record<string, unknown> | undefined) ?? {}) };
  for (const [name, field] of Object.entries(fields)) {
    if (io === "output" ? field.returned : field.input) properties[name] = fieldSchema(field);
  }
  target.properties = properties;
}

/** zod to JSON Schema 2020-12 (OpenAPI 3.1's dialect); a Date travels as an ISO-8601 string. */
function jsonSchema(schema: z.ZodType, io: "input" | "output", fields?: DocumentedFields): JsonSchema {
  const result = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def;
      if (def.type === "date") {
        ctx.jsonSchema.type = "string";
        ctx.jsonSchema.format = "date-time";
      }
      if (fields && io === "output" && def.type === "object") {
        const model = modelOf(Object.keys((def as unknown as { shape: object }).shape));
        if (model) addFields(ctx.jsonSchema as JsonSchema, fields[model], io);
      }
    },
  }) as JsonSchema;
  delete result.$schema;
  return result;
}

/** Request bodies that take a model's fields (organization/update: inside `data`). */
const FIELD_BODIES: Record<string, { model: FieldModel; inside?: string }> = {
  "/sign-up/email": { model: "user" },
  "/update-user": { model: "user" },
  "/update-session": { model: "session" },
  "/organization/create": { model: "organization" },
  "/organization/update": { model: "organization", inside: "data" },
};

function addBodyFields(path: string, body: JsonSchema | undefined, fields: DocumentedFields | undefined): void {
  const target = FIELD_BODIES[path];
  if (!body || !fields || !target) return;
  const holder = target.inside ? (body.properties as Record<string, JsonSchema> | undefined)?.[target.inside] : body;
  if (!holder) return;
  addFields(holder, fields[target.model], "input");
  // A required field is required at creation only.
  if (path === "/sign-up/email" || path === "/organization/create") {
    const required = Object.entries(fields[target.model]).filter(([, f]) => f.required && f.input);
    if (required.length > 0) holder.required = [...((holder.required as string[]) ?? []), ...required.map(([n]) => n)];
  }
}

/** Body and query fields the origin check reads as redirect targets (WIRE 1.5), with their errors. */
const REDIRECT_FIELD_ERRORS: Record<string, ErrorCode> = {
  callbackURL: "INVALID_CALLBACK_URL",
  redirectTo: "INVALID_REDIRECT_URL",
  errorCallbackURL: "INVALID_ERROR_CALLBACK_URL",
  newUserCallbackURL: "INVALID_NEW_USER_CALLBACK_URL",
};

function fieldsOf(schema: JsonSchema | undefined): string[] {
  return Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
}

/** Every code an endpoint can answer: what its policy and inputs imply, then its own. */
export function errorCodesOf(endpoint: Endpoint, body?: JsonSchema, query?: JsonSchema): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const { policy } = endpoint;
  if (endpoint.method === "POST") {
    for (const code of [
      "BAD_REQUEST",
      "BODY_MUST_BE_AN_OBJECT",
      "UNSUPPORTED_MEDIA_TYPE",
      "PAYLOAD_TOO_LARGE",
    ] as const)
      codes.add(code);
    if (policy.origin !== "provider") codes.add("INVALID_ORIGIN").add("MISSING_OR_NULL_ORIGIN");
    if (policy.origin === "login") codes.add("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
  }
  // The input bounds (NUL, depth, array length) apply to every request.
  codes.add("VALIDATION_ERROR");
  if (policy.rateLimit !== "none") codes.add("TOO_MANY_REQUESTS");
  if (policy.session) codes.add("UNAUTHORIZED");
  if (policy.session === "fresh") codes.add("SESSION_NOT_FRESH");
  if (policy.credentials) codes.add("IMPERSONATION_NOT_ALLOWED");
  if (policy.credentials === "reprove" || policy.credentials === "enrol") {
    codes.add("REAUTHENTICATION_REQUIRED").add("INVALID_PASSWORD");
  }
  if (policy.credentials === "enrol") codes.add("EMAIL_NOT_VERIFIED");
  for (const field of [...fieldsOf(body), ...fieldsOf(query)]) {
    const code = REDIRECT_FIELD_ERRORS[field];
    if (code) codes.add(code);
  }
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes];
}

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = errorCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${errorCatalogue[code].message}`).join("\n\n"),
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/Error" },
              { type: "object", properties: { code: { enum: statusCodes } } },
            ],
          },
        },
      },
    };
  }
  responses["500"] = { $ref: "#/components/responses/InternalError" };
  responses["503"] = { $ref: "#/components/responses/ServiceUnavailable" };
  return responses;
}

function successResponses(endpoint: Endpoint, fields: DocumentedFields | undefined): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  if (endpoint.reply) {
    responses["200"] = {
      description: "Success",
      content: { "application/json": { schema: jsonSchema(endpoint.reply, "output", fields) } },
    };
  }
  if (endpoint.answers === "html") {
    responses["200"] = { description: "An HTML page", content: { "text/html": { schema: { type: "string" } } } };
  }
  if (endpoint.answers === "no-content") responses["204"] = { description: "Done: no content" };
  if (endpoint.answers === "file") {
    responses["200"] = { description: "A static file", content: { "*/*": { schema: { type: "string" } } } };
  }
  if (endpoint.answers === "redirect" || endpoint.answers === "json-or-redirect" || endpoint.answers === "html") {
    responses["302"] = {
      description: "A redirect (to the callbackURL when one was given)",
      headers: { Location: { schema: { type: "string" } } },
    };
  }
  return responses;
}

/** SCIM's answers (RFC 7644): resources in application/scim+json, refusals as SCIM error messages. */
function scimResponses(endpoint: Endpoint): Record<string, unknown> {
  const scimJson = (description: string) => ({
    description,
    content: { "application/scim+json": { schema: { type: "object" } } },
  });
  const success =
    endpoint.method === "DELETE"
      ? { "204": { description: "Removed" } }
      : endpoint.method === "POST"
        ? { "201": scimJson("Created (Location names it)") }
        : { "200": scimJson("The resource, or a ListResponse") };
  return {
    ...success,
    "400": scimJson("A SCIM error: invalidSyntax, invalidValue, invalidFilter, invalidPath, mutability, ..."),
    "401": scimJson("A SCIM error: a valid bearer token is required"),
    "404": scimJson("A SCIM error: no such resource for this connection"),
    ...(endpoint.method === "GET" || endpoint.method === "DELETE"
      ? {}
      : { "409": scimJson("A SCIM error: uniqueness") }),
    "429": scimJson("A SCIM error: too many requests (Retry-After)"),
  };
}

function queryParameters(query: JsonSchema | undefined): unknown[] {
  const properties = (query?.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = new Set((query?.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema,
  }));
}

/** `/callback/:id` -> `/callback/{id}`, with the names of its path parameters. */
function openApiPath(path: string): { path: string; names: string[] } {
  const names: string[] = [];
  const converted = path.replace(/:(\w+)/g, (_match, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path: converted, names };
}

export interface OpenApiInput {
  /** The endpoints this server routes, by area (the area names the tag). */
  areas: Record<string, Record<string, Endpoint>>;
  /** The API root, e.g. `https://auth.example.com/api/auth`. */
  serverUrl: string;
  /** The session cookie's name with this server's prefix. */
  sessionCookieName: string;
  /** The app's own fields, added to the models and bodies that carry them. */
  additionalFields?: DocumentedFields;
}

/** The version of the API description (the wire contract), not of the package. */
const API_VERSION = "1.0.0";

/** The OpenAPI 3.1 document of the endpoint table, as served at /openapi.json. */
export function buildOpenApiDocument({
  areas,
  serverUrl,
  sessionCookieName,
  additionalFields,
}: OpenApiInput): Record<string, unknown> {
  const keyCounts = new Map<string, number>();
  for (const area of Object.values(areas))
    for (const key of Object.keys(area)) keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1);

  const paths: Record<string, Record<string, unknown>> = {};
  for (const [areaName, area] of Object.entries(areas)) {
    for (const [key, endpoint] of Object.entries(area)) {
      const body = endpoint.body ? jsonSchema(endpoint.body, "input") : undefined;
      addBodyFields(endpoint.path, body, additionalFields);
      const query = endpoint.query ? jsonSchema(endpoint.query, "input") : undefined;
      const { path, names } = openApiPath(endpoint.path);
      const bodyContent: Record<string, unknown> = {};
      if (body) {
        if (endpoint.policy.directory) bodyContent["application/scim+json"] = { schema: body };
        bodyContent["application/json"] = { schema: body };
        if (endpoint.policy.form) bodyContent["application/x-www-form-urlencoded"] = { schema: body };
      }
      const operation: Record<string, unknown> = {
        operationId: (keyCounts.get(key) ?? 0) > 1 ? `${areaName}${key[0]?.toUpperCase()}${key.slice(1)}` : key,
        summary: endpoint.summary,
        tags: [areaName],
        parameters: [
          ...names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
          ...queryParameters(query),
        ],
        ...(body ? { requestBody: { required: false, content: bodyContent } } : {}),
        responses: endpoint.policy.directory
          ? scimResponses(endpoint)
          : {
              ...successResponses(endpoint, additionalFields),
              ...errorResponses(errorCodesOf(endpoint, body, query)),
            },
        ...(endpoint.policy.session ? { security: [{ sessionCookie: [] }] } : {}),
        ...(endpoint.policy.directory ? { security: [{ scimBearer: [] }] } : {}),
      };
      paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation };
    }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse auth API",
      version: API_VERSION,
      description: "Accounts, sessions and organizations. Errors answer `{code, message}`; clients branch on `code`.",
    },
    servers: [{ url: serverUrl }],
    tags: Object.keys(areas).map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["code", "message"],
          properties: { code: { type: "string" }, message: { type: "string" } },
        },
      },
      responses: {
        InternalError: {
          description: "An unexpected failure, logged with the request id the message names",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        ServiceUnavailable: {
          description:
            "`SERVICE_UNAVAILABLE`: the database does not answer for now; retry after the Retry-After header's seconds",
          headers: { "Retry-After": { schema: { type: "integer" } } },
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: sessionCookieName },
        scimBearer: {
          type: "http",
          scheme: "bearer",
          description: "An organization's SCIM token (POST /scim/generate-token)",
        },
      },
    },
  };
}
