import type { SessionWithUser } from "../../../contract/models.js";
import { auditChange } from "../../audit/trail.service.js";
import { type AuthContext, apiURL } from "../../context.js";
import { sha256Base64Url } from "../../crypto/digest.js";
import { newId, randomString } from "../../crypto/random.js";
import { AuthError } from "../../errors.js";
import { findConsent, insertCode, type OAuthClient, saveConsent } from "../../store/oauth-provider.js";
import { issuerOf } from "./metadata.js";
import { resolveClient } from "./metadata-document.js";
import { signQuery, verifySignedQuery } from "./signed-query.js";

/**
 * The authorization endpoint (OAuth 2.1 4.1, OpenID Connect Core 3.1.2): checks the request, sends
 * the browser to the app's login or consent page when the user must act, and otherwise back to the
 * client with a code. Until the client and its redirect URI are known, errors go to this server's
 * error page, never to an unchecked URI (open redirect); after, to the redirect URI with `state`
 * and `iss` (RFC 9207, against mix-up).
 */

/** A code is exchanged within a minute, once. */
export const CODE_LIFETIME_MS = 60_000;
const PROMPTS = new Set(["none", "login", "consent", "create", "select_account"]);
/** Prompts the app's login page answers: once the user has signed in for this request, they are done. */
const LOGIN_PROMPTS = ["login", "create", "select_account"];
/** Parameters the provider reads; each at most once (RFC 6749 3.1). */
const SINGLE = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "nonce",
  "prompt",
  "max_age",
  "resource",
  "response_mode",
];

class Refusal {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {}
}

/** Where the browser goes: this server's error page (nothing about the client is trusted yet). */
function errorPage(ctx: AuthContext, error: string, description: string): string {
  return `${apiURL(ctx, "/error")}?${new URLSearchParams({ error, error_description: description })}`;
}

/**
 * Where the browser goes next: a URL to redirect to or, for response_mode=form_post (OAuth 2.0
 * Form Post Response Mode), the redirect URI and the fields an auto-submitted form POSTs to it.
 */
export interface Destination {
  url: string;
  post?: Record<string, string>;
}

function backToClient(
  ctx: AuthContext,
  redirectUri: string,
  params: Record<string, string | undefined>,
  formPost = false,
): Destination {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) fields[key] = value;
  fields.iss = issuerOf(ctx);
  if (formPost) return { url: redirectUri, post: fields };
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
  return { url: url.toString() };
}

/** The request asks for its answer as a form POST (checked against the modes the server offers later). */
const wantsFormPost = (params: URLSearchParams) => params.get("response_mode") === "form_post";

/** Marks a signed request the user denied at the consent page, for the form_post round trip. */
const DENIED = "gh_denied";

function pageURL(ctx: AuthContext, page: string, signedQuery: string): string {
  const url = new URL(page, ctx.baseURL);
  return `${url.toString()}${url.search ? "&" : "?"}${signedQuery}`;
}

function allowedAudiences(ctx: AuthContext): Set<string> {
  return new Set([issuerOf(ctx), ...ctx.options.oauthProvider.validAudiences]);
}

/** RFC 8707: the one resource the token is for, when the client names one this server serves. */
export function checkResource(ctx: AuthContext, resource: string | undefined): string | null {
  if (resource === undefined || resource === "") return null;
  if (!allowedAudiences(ctx).has(resource)) throw new Refusal("invalid_target", "The resource is not served here");
  return resource;
}

/** What a checked request asks for. */
interface Checked {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  prompts: Set<string>;
  maxAgeSeconds: number | undefined;
  codeChallenge: string | null;
  nonce: string | null;
  resource: string | null;
}

/** The request's own checks, in RFC order; a Refusal from here goes back to the client. */
function checkRequest(ctx: AuthContext, params: URLSearchParams, client: OAuthClient, redirectUri: string): Checked {
  const get = (key: string) => params.get(key) ?? undefined;
  if (get("response_type") !== "code") {
    throw new Refusal("unsupported_response_type", "Only response_type=code is supported");
  }
  // OpenID Connect Core 6: a request object ignored would let its parameters differ silently.
  if (get("request") !== undefined) throw new Refusal("request_not_supported", "Request objects are not supported");
  if (get("request_uri") !== undefined) {
    throw new Refusal("request_uri_not_supported", "request_uri is not supported");
  }
  const mode = get("response_mode");
  if (mode !== undefined && mode !== "query" && mode !== "form_post") {
    throw new Refusal("invalid_request", "response_mode must be query or form_post");
  }
  if (!client.grantTypes.includes("authorization_code")) {
    throw new Refusal("unauthorized_client", "The client may not use the authorization_code grant");
  }
  const allowedScopes = client.scopes.filter((scope) => ctx.options.oauthProvider.scopes.includes(scope));
  const requested = get("scope");
  const scopes = requested === undefined ? allowedScopes : [...new Set(requested.split(" ").filter(Boolean))];
  const unknown = scopes.filter((scope) => !allowedScopes.includes(scope));
  if (unknown.length > 0) throw new Refusal("invalid_scope", `Scopes not allowed: ${unknown.join(", ")}`);
  if (scopes.length === 0) throw new Refusal("invalid_scope", "No scope requested");

  const challenge = get("code_challenge");
  const method = get("code_challenge_method");
  if (challenge === undefined && method !== undefined)
    throw new Refusal("invalid_request", "code_challenge is missing");
  if (challenge !== undefined) {
    // RFC 7636 4.2: a missing method means plain, which OAuth 2.1 refuses.
    if (method !== "S256") throw new Refusal("invalid_request", "code_challenge_method must be S256");
    if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) throw new Refusal("invalid_request", "Malformed code_challenge");
  } else if (client.tokenEndpointAuthMethod === "none") {
    throw new Refusal("invalid_request", "A public client must use PKCE (code_challenge with S256)");
  }

  const prompts = new Set((get("prompt") ?? "").split(" ").filter(Boolean));
  for (const prompt of prompts) if (!PROMPTS.has(prompt)) throw new Refusal("invalid_request", "Unknown prompt");
  if (prompts.has("none") && prompts.size > 1) throw new Refusal("invalid_request", "prompt=none stands alone");
  const maxAge = get("max_age");
  if (maxAge !== undefined && !/^\d{1,9}$/.test(maxAge)) throw new Refusal("invalid_request", "Malformed max_age");
  const nonce = get("nonce");
  if (nonce !== undefined && nonce.length > 512) throw new Refusal("invalid_request", "nonce too long");
  const state = get("state");
  if (state !== undefined && state.length > 2048) throw new Refusal("invalid_request", "state too long");
  return {
    client,
    redirectUri,
    state,
    scopes,
    prompts,
    maxAgeSeconds: maxAge === undefined ? undefined : Number(maxAge),
    codeChallenge: challenge ?? null,
    nonce: nonce ?? null,
    resource: checkResource(ctx, get("resource")),
  };
}

/** The request with the prompts the user has now answered taken out, so its next page does not ask again. */
function withoutPrompts(params: URLSearchParams, answered: string[], dropMaxAge: boolean): URLSearchParams {
  const next = new URLSearchParams(params);
  const left = (params.get("prompt") ?? "").split(" ").filter((prompt) => prompt && !answered.includes(prompt));
  if (left.length > 0) next.set("prompt", left.join(" "));
  else next.delete("prompt");
  if (dropMaxAge) next.delete("max_age");
  return next;
}

export interface AuthorizeInput {
  params: URLSearchParams;
  session: SessionWithUser | null;
  /** When the login page was handed this request (a signed query coming back); null for a fresh one. */
  signedAt: Date | null;
  /** The user has just consented to the request's scopes (the consent endpoint). */
  consented?: boolean;
}

/**
 * The authorization endpoint's own answer (GET): as authorize, where a signed request the consent
 * page marked denied goes back to the client as access_denied (the form_post round trip).
 */
export async function authorizeFromBrowser(ctx: AuthContext, input: AuthorizeInput): Promise<Destination> {
  if (input.signedAt !== null && input.params.get(DENIED) === "1") {
    const params = new URLSearchParams(input.params);
    params.delete(DENIED);
    return authorize(ctx, { ...input, params, denied: true });
  }
  return authorize(ctx, input);
}

/** The URL the browser goes to next. */
export async function authorize(ctx: AuthContext, input: AuthorizeInput & { denied?: boolean }): Promise<Destination> {
  const { params, session } = input;
  for (const key of SINGLE) {
    if (params.getAll(key).length > 1) {
      return { url: errorPage(ctx, "invalid_request", `${key} is given more than once`) };
    }
  }
  const clientId = params.get("client_id");
  const client = clientId ? await resolveClient(ctx, clientId) : null;
  if (!client || client.disabled) return { url: errorPage(ctx, "invalid_client", "Unknown or disabled client") };
  const redirectUri = params.get("redirect_uri");
  // Exact match only (OAuth 2.1 2.3.1): no prefix, no normalization.
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return { url: errorPage(ctx, "invalid_request", "redirect_uri is not registered for this client") };
  }
  let checked: Checked;
  try {
    checked = checkRequest(ctx, params, client, redirectUri);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    // A malformed response_mode is answered in the query: the mode itself is what is wrong.
    const formPost = params.getAll("response_mode").length === 1 && wantsFormPost(params);
    return backToClient(
      ctx,
      redirectUri,
      { error: error.error, error_description: error.description, state: params.get("state") ?? undefined },
      formPost,
    );
  }
  const formPost = wantsFormPost(params);
  const refuse = (error: string, description: string) =>
    backToClient(ctx, redirectUri, { error, error_description: description, state: checked.state }, formPost);
  if (input.denied) return refuse("access_denied", "The user denied access");

  // The user signed in after this request was handed to the login page: that sign-in answers it.
  const signedInForThis =
    session !== null && input.signedAt !== null && session.session.createdAt.getTime() >= input.signedAt.getTime();
  const authTime = session?.session.createdAt ?? null;
  const tooOld =
    authTime !== null &&
    checked.maxAgeSeconds !== undefined &&
    ctx.now().getTime() - authTime.getTime() > checked.maxAgeSeconds * 1000;
  const wantsLogin = LOGIN_PROMPTS.some((prompt) => checked.prompts.has(prompt));
  if (!session || (!signedInForThis && (wantsLogin || tooOld))) {
    if (checked.prompts.has("none")) return refuse("login_required", "The user must sign in");
    return { url: pageURL(ctx, ctx.options.oauthProvider.loginPage, signQuery(ctx, params)) };
  }
  // An admin acting as the user may not give a client tokens that outlive the impersonation.
  if (session.session.impersonatedBy)
    return refuse("access_denied", "An impersonation session cannot authorize clients");
  const answered = signedInForThis ? withoutPrompts(params, LOGIN_PROMPTS, true) : params;

  if (!client.skipConsent && !input.consented) {
    const consent = await findConsent(ctx.db, session.user.id, client.clientId);
    const covered = consent !== null && checked.scopes.every((scope) => consent.scopes.includes(scope));
    if (!covered || checked.prompts.has("consent")) {
      if (checked.prompts.has("none")) return refuse("consent_required", "The user must consent");
      return { url: pageURL(ctx, ctx.options.oauthProvider.consentPage, signQuery(ctx, answered)) };
    }
  }

  const code = randomString(43);
  const now = ctx.now();
  await insertCode(ctx.db, {
    codeHash: sha256Base64Url(code),
    clientId: client.clientId,
    userId: session.user.id,
    redirectUri,
    scopes: checked.scopes.join(" "),
    resource: checked.resource,
    codeChallenge: checked.codeChallenge,
    nonce: checked.nonce,
    authTime: session.session.createdAt,
    sessionId: session.session.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
  });
  return backToClient(ctx, redirectUri, { code, state: checked.state }, formPost);
}

/**
 * The consent page's answer (better-auth's POST /oauth2/consent): a denial goes back to the client
 * as access_denied; an acceptance is remembered for the user and client (the scopes accepted, added
 * to any accepted before) and the request goes on, normally to the client with a code.
 */
export async function answerConsent(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { accept: boolean; scope?: string; oauth_query: string },
): Promise<string> {
  const verified = verifySignedQuery(ctx, input.oauth_query);
  if (!verified) throw new AuthError("OAUTH_QUERY_INVALID");
  const { request } = verified;
  const client = await resolveClient(ctx, request.get("client_id") ?? "");
  const redirectUri = request.get("redirect_uri") ?? "";
  if (!client || client.disabled || !client.redirectUris.includes(redirectUri)) {
    throw new AuthError("OAUTH_QUERY_INVALID");
  }
  const state = request.get("state") ?? undefined;
  if (!input.accept) {
    // A form POST can only be made by a page the browser loads: back through the authorization endpoint.
    if (wantsFormPost(request)) {
      const denied = new URLSearchParams(request);
      denied.set(DENIED, "1");
      return reentryURL(ctx, signQuery(ctx, denied));
    }
    return backToClient(ctx, redirectUri, {
      error: "access_denied",
      error_description: "The user denied access",
      state,
    }).url;
  }
  const requested = (request.get("scope") ?? client.scopes.join(" ")).split(" ").filter(Boolean);
  const accepted = input.scope === undefined ? requested : [...new Set(input.scope.split(" ").filter(Boolean))];
  if (accepted.length === 0 || accepted.some((scope) => !requested.includes(scope))) {
    throw new AuthError("OAUTH_INVALID_REQUEST", { message: "Only scopes the client requested can be accepted" });
  }
  // A client that asked to sign the user in (openid) gets that or nothing: the user may deny instead.
  if (requested.includes("openid") && !accepted.includes("openid")) {
    throw new AuthError("OAUTH_INVALID_REQUEST", { message: "openid was requested: it cannot be left out" });
  }
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await findConsent(trx, caller.user.id, client.clientId);
    await saveConsent(trx, {
      id: before?.id ?? newId(),
      userId: caller.user.id,
      clientId: client.clientId,
      scopes: [...new Set([...(before?.scopes ?? []), ...accepted])],
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    });
    await auditChange(ctx, trx, {
      subjectId: caller.user.id,
      organizationId: client.organizationId ?? undefined,
      details: { clientId: client.clientId, scopes: accepted.join(" ") },
    });
  });
  const params = withoutPrompts(request, ["consent"], false);
  params.set("scope", accepted.join(" "));
  // The consent is saved: the authorization endpoint, loaded by the browser, answers with the form.
  if (wantsFormPost(params)) return reentryURL(ctx, signQuery(ctx, params));
  // The consent page was reached signed in for this request: the time it was signed still counts.
  return (await authorize(ctx, { params, session: caller, signedAt: verified.signedAt, consented: true })).url;
}

/** The authorization endpoint with a signed request: the browser comes back to have the answer POSTed. */
function reentryURL(ctx: AuthContext, signedQuery: string): string {
  return `${apiURL(ctx, "/oauth2/authorize")}?${signedQuery}`;
}

/**
 * The login page's answer once the user has signed in (better-auth's POST /oauth2/continue): the
 * signed request goes on, its prompt=login and max_age met by a sign-in made after it was signed.
 */
export async function continueAuthorization(ctx: AuthContext, caller: SessionWithUser, oauthQuery: string) {
  const verified = verifySignedQuery(ctx, oauthQuery);
  if (!verified) throw new AuthError("OAUTH_QUERY_INVALID");
  // The query as the login page got it (its signing time decides prompt=login and max_age).
  if (wantsFormPost(verified.request)) return reentryURL(ctx, oauthQuery);
  return (await authorize(ctx, { params: verified.request, session: caller, signedAt: verified.signedAt })).url;
}
