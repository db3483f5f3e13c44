import type { z } from "zod";
import type { AuditAction } from "../audit.js";
import type { ErrorCode } from "../errors/index.js";
import type { SetupScope } from "../setup-links.js";

/**
 * Client state a successful call makes stale, so the client reads it again. A new session also
 * re-reads the active organization and member.
 */
export type Refresh = "session" | "organizations" | "activeOrganization" | "activeMember";

/**
 * Rate-limit classes (WIRE 1.6): `credential` where passwords are guessed (3 per 10 s), `mail`
 * where mail is sent (3 per 60 s), `none` for a probe nothing can abuse; `default` otherwise.
 */
export type RateLimitClass = "default" | "credential" | "mail" | "none";

/** Option switches that take whole endpoints away: a switched-off endpoint is not routed (404). */
export type Feature =
  | "admin"
  | "jwt"
  | "anonymous"
  | "oneTap"
  | "deleteUser"
  | "organization"
  | "teams"
  | "developmentOutbox"
  | "twoFactor"
  | "magicLink"
  | "emailOTP"
  | "passkey"
  | "scim"
  | "sso"
  | "securityActivity"
  | "organizationWebhooks"
  | "apiKey"
  | "oauthProvider"
  | "oauthProviderAdmin"
  | "setupLinks";

/** How an endpoint is guarded and what it changes, in one place. Everything is off unless set. */
export interface Policy {
  /** `required`: 401 without a live session; `fresh`: also SESSION_NOT_FRESH for an old sign-in. */
  readonly session?: "required" | "fresh";
  /** Also takes an HTML form post (application/x-www-form-urlencoded). */
  readonly form?: boolean;
  /**
   * Signs a browser in: the origin is checked even without cookies or a body (login CSRF).
   * `provider` marks a provider's form_post, which comes from the provider's origin and only redirects.
   */
  readonly origin?: "login" | "provider";
  readonly rateLimit?: RateLimitClass;
  readonly refreshes?: readonly Refresh[];
  readonly feature?: Feature;
  /**
   * Credential and factor management (server: services/credential-guard.ts). `manage` refuses an
   * admin's impersonation session; `reprove` also needs a recent proof of identity (a `password` in
   * the body, or one recorded on the session); `enrol` also needs a verified, non-guest account.
   */
  readonly credentials?: CredentialRule;
  /**
   * Organization policy (server: services/organization-policy.ts). A signed-in endpoint of the
   * organization, teams, SSO or SCIM areas acts in an organization and must meet its policy, unless
   * `exempt` (it acts in none, or lets a member out or in: create, list, set-active, leave,
   * invitations to the caller) or `state` (exempt, and its handler is told how the caller stands).
   */
  readonly organizationRules?: "exempt" | "state";
  /**
   * A SCIM protocol route (RFC 7644): the caller is an organization's directory, authenticated by its
   * connection's bearer token instead of a session; bodies and replies are application/scim+json and
   * refusals are SCIM errors (server: scim/protocol.http.ts).
   */
  readonly directory?: true;
  /**
   * Whether an API key (x-api-key) may be the caller (server: services/api-keys.ts). Everywhere else
   * a request carrying a key is refused with API_KEY_NOT_ACCEPTED: account, credential and key
   * management routes never act for a key.
   */
  readonly apiKeys?: "accepted";
  /**
   * Called by the holder of a setup link, not a session (server: services/setup-links.ts): the link's
   * cookie must be live and grant one of these scopes; the handler acts for its organization only.
   */
  readonly setupLink?: readonly SetupScope[];
}

export type CredentialRule = "manage" | "reprove" | "enrol";

/**
 * What an endpoint's audit trail entry says (docs/audit.md lists the actions). An endpoint without
 * one writes none, only a refusal by the rate limiter or origin check (a read, a probe, sending a
 * link); every endpoint that changes something declares one or is listed as deliberately unaudited
 * (src/contract/endpoints/audit.test.ts).
 */
export interface AuditPolicy {
  readonly action: AuditAction;
  /**
   * `admin`: the admin API, acting as an admin. Otherwise the caller: the signed-in user (an
   * impersonating admin as the admin), the directory on a SCIM route, a setup link's holder.
   */
  readonly actor?: "admin";
  /** The input field (body, else query) naming the user the entry is about, when the input names one. */
  readonly subject?: "userId";
  /** The input field (body, else query) naming the organization the entry belongs to. */
  readonly organization?: "organizationId";
  /** The sign-in method or factor the entry is about. */
  readonly details?: { readonly method?: string; readonly factor?: string };
  /** Entries only when the change is made: a flow whose refusals are redirects rather than errors. */
  readonly whenChanged?: boolean;
}

/** What an endpoint answers when it is not JSON. */
export type NonJsonReply = "redirect" | "html" | "json-or-redirect" | "file" | "scim" | "no-content";

/** The methods the table routes: the browser API uses GET and POST; SCIM also PUT, PATCH and DELETE. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Endpoint {
  readonly method: HttpMethod;
  /** Below the base path; `:name` marks a path parameter. */
  readonly path: string;
  /** One line for the OpenAPI document and the reference page. */
  readonly summary: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  /** The 200 JSON reply; null when the endpoint only redirects or serves a page. */
  readonly reply: z.ZodType | null;
  readonly answers?: NonJsonReply;
  /** The domain error codes this endpoint can answer, beyond the ones its policy implies. */
  readonly errors?: readonly ErrorCode[];
  /** Its audit trail entry; absent: none (see AuditPolicy). */
  readonly audit?: AuditPolicy;
  readonly policy: Policy;
}

/** Keeps an entry's literal types (its schemas) while checking its shape. */
export function endpoint<const E extends Endpoint>(entry: E): E {
  return entry;
}

/** What a schema slot holds once parsed: the schema's output, or undefined when the slot is empty. */
export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What a caller sends in a schema slot. */
export type Sent<S> = S extends z.ZodType ? z.input<S> : undefined;
/** The reply an endpoint's handler returns (JSON turns Dates into ISO text). */
export type ReplyOf<E extends Endpoint> = E["reply"] extends z.ZodType ? z.input<E["reply"]> : never;
