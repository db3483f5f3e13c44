import { X509Certificate } from "node:crypto";
import type * as NodeSaml from "@node-saml/node-saml";
import type { CacheProvider, SAML } from "@node-saml/node-saml";
import type * as NodeSamlXml from "@node-saml/node-saml/lib/xml.js";
import type { SamlConfigInput } from "../../contract/sso.js";
import { type AuthContext, apiURL } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { randomString } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { isLoopbackHostname } from "../loopback.js";
import type { Claims } from "../providers/types.js";
import { claimAttempt } from "../store/attempt-counters.js";
import { findSsoProvider, type SsoProviderRecord } from "./providers.store.js";

/**
 * @node-saml/node-saml and its XML parsers, signature checker and XPath, loaded at the first SAML use:
 * an instance without SAML connections does without them and their memory (bench/README.md, lazy loads).
 */
let samlModules: Promise<[typeof NodeSaml, typeof NodeSamlXml]> | undefined;
const saml = () => {
  samlModules ??= Promise.all([import("@node-saml/node-saml"), import("@node-saml/node-saml/lib/xml.js")]);
  return samlModules;
};

/**
 * SAML 2.0 connections, the SP side of the Web Browser SSO profile: AuthnRequest by HTTP-Redirect,
 * response by HTTP-POST. XML signatures, timestamps and audience are checked by @node-saml/node-saml
 * (docs/sso.md says why that library); recipient, destination, the request the response answers and
 * replay are checked here.
 */

/** Clock difference tolerated between the IdP and us on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** How long an assertion id is remembered when the assertion names no end (it then has none to replay past). */
const REPLAY_FALLBACK_MS = 60 * 60_000;
const HTTP_REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export interface SamlMapping {
  id?: string;
  email?: string;
  emailVerified?: string;
  name?: string;
  firstName?: string;
  lastName?: string;
}

/** What a SAML connection keeps (ssoProvider.samlConfig). Certificates are public; nothing here is secret. */
export interface SamlSettings {
  idpEntityId: string;
  entryPoint: string;
  /** PEM. */
  certs: string[];
  /** The SP entity id chosen at registration; null: the SP metadata URL. */
  audience: string | null;
  identifierFormat: string | null;
  mapping: SamlMapping;
}

export function acsURLOf(ctx: AuthContext, providerId: string): string {
  return apiURL(ctx, `/sso/saml2/callback/${encodeURIComponent(providerId)}`);
}

/** better-auth's second ACS path: both answer, and responses may name either. */
export function altAcsURLOf(ctx: AuthContext, providerId: string): string {
  return apiURL(ctx, `/sso/saml2/sp/acs/${encodeURIComponent(providerId)}`);
}

export function spMetadataURLOf(ctx: AuthContext, providerId: string): string {
  return apiURL(ctx, `/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`);
}

export function spEntityIdOf(ctx: AuthContext, provider: SsoProviderRecord, settings: SamlSettings): string {
  return settings.audience ?? spMetadataURLOf(ctx, provider.providerId);
}

export function readSamlSettings(provider: SsoProviderRecord): SamlSettings {
  if (provider.type !== "saml" || !provider.samlConfig) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  return JSON.parse(provider.samlConfig) as SamlSettings;
}

function invalid(message: string): AuthError {
  return new AuthError("SAML_CONFIG_INVALID", { message });
}

/** A certificate as PEM, from PEM or bare base64; refused when it is not an X.509 certificate. */
function certificatePem(text: string): string {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, "")
    .replace(/\s+/g, "")
    .trim();
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw invalid("cert is not an X.509 certificate (PEM or base64)");
  }
  return pem;
}

export function certFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/** https, or plain http on loopback (tests run a real IdP there). */
function checkEndpointURL(value: string): void {
  const url = new URL(value);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHostname(url.hostname))) {
    throw invalid("entryPoint must be an https URL");
  }
  if (url.username || url.password || url.hash) throw invalid("entryPoint must be a plain URL");
}

interface IdpMetadata {
  entityId: string | null;
  redirectSSO: string | null;
  certs: string[];
}

/** Reads the IdP's metadata XML: its entity id, HTTP-Redirect SSO URL and signing certificates. */
async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  // Metadata never needs a document type; one is how entity expansion (and its bombs) gets in.
  if (/<!DOCTYPE/i.test(xml)) throw invalid("idpMetadata.metadata must not contain a DOCTYPE (entities are refused)");
  const [, { parseDomFromString, xpath }] = await saml();
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch {
    throw invalid("idpMetadata.metadata is not well-formed XML");
  }
  const entity = xpath.selectElements(doc, "//*[local-name()='EntityDescriptor'][*[local-name()='IDPSSODescriptor']]");
  if (entity.length !== 1) throw invalid("idpMetadata.metadata must describe exactly one identity provider");
  const descriptor = entity[0] as Element;
  const sso = xpath
    .selectElements(descriptor, "./*[local-name()='IDPSSODescriptor']/*[local-name()='SingleSignOnService']")
    .find((e) => e.getAttribute("Binding") === HTTP_REDIRECT);
  const certs = xpath
    .selectElements(
      descriptor,
      "./*[local-name()='IDPSSODescriptor']/*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']",
    )
    .map((e) => e.textContent ?? "")
    .filter((text) => text.trim() !== "");
  return {
    entityId: descriptor.getAttribute("entityID") || null,
    redirectSSO: sso?.getAttribute("Location") || null,
    certs,
  };
}

/**
 * The settings a registration (or an update, `current` holding what is kept) describes; every
 * refusal is 400 SAML_CONFIG_INVALID naming the field.
 */
export async function samlSettingsFrom(
  ctx: AuthContext,
  providerId: string,
  issuer: string | undefined,
  input: SamlConfigInput,
  current?: SamlSettings,
): Promise<SamlSettings> {
  const metadata = input.idpMetadata?.metadata ? await parseIdpMetadata(input.idpMetadata.metadata) : null;
  const idpEntityId = input.idpMetadata?.entityID ?? metadata?.entityId ?? issuer ?? current?.idpEntityId ?? undefined;
  if (!idpEntityId) throw invalid("the IdP entity id is required (issuer or idpMetadata)");
  const listedSSO = input.idpMetadata?.singleSignOnService?.find((s) => s.Binding === HTTP_REDIRECT)?.Location;
  const entryPoint = input.entryPoint ?? listedSSO ?? metadata?.redirectSSO ?? current?.entryPoint;
  if (!entryPoint) throw invalid("entryPoint (the IdP's HTTP-Redirect SSO URL) is required");
  checkEndpointURL(entryPoint);
  const given = [input.cert, input.idpMetadata?.cert, ...(metadata?.certs ?? [])].filter(
    (c): c is string => typeof c === "string",
  );
  const certs = given.length > 0 ? [...new Set(given.map(certificatePem))] : (current?.certs ?? []);
  if (certs.length === 0) throw invalid("cert (the IdP's signing certificate) is required");
  if (certs.length > 5) throw invalid("at most 5 signing certificates");
  if (input.callbackUrl !== undefined) {
    const ours = [acsURLOf(ctx, providerId), altAcsURLOf(ctx, providerId)];
    if (!ours.includes(input.callbackUrl)) throw invalid(`callbackUrl must be ${ours[0]}`);
  }
  const audience = input.audience ?? input.issuer ?? input.spMetadata?.entityID ?? (current ? current.audience : null);
  return {
    idpEntityId,
    entryPoint,
    certs,
    audience,
    identifierFormat: input.identifierFormat ?? current?.identifierFormat ?? null,
    mapping: input.mapping ?? current?.mapping ?? {},
  };
}

async function samlClient(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  settings: SamlSettings,
  request: { id: string; issuedAt: string } | null,
): Promise<SAML> {
  const [{ SAML, ValidateInResponseTo }] = await saml();
  const spEntityId = spEntityIdOf(ctx, provider, settings);
  // Only the request this flow issued is known: the response must answer it and nothing else.
  const cacheProvider: CacheProvider = {
    saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
    getAsync: async (key) => (request && key === request.id ? request.issuedAt : null),
    removeAsync: async () => null,
  };
  return new SAML({
    idpCert: settings.certs,
    idpIssuer: settings.idpEntityId,
    issuer: spEntityId,
    audience: spEntityId,
    callbackUrl: acsURLOf(ctx, provider.providerId),
    entryPoint: settings.entryPoint,
    identifierFormat: settings.identifierFormat,
    wantAssertionsSigned: true,
    // A signed response alone does not do: the assertion must carry its own signature.
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: request ? ValidateInResponseTo.always : ValidateInResponseTo.never,
    requestIdExpirationPeriodMs: 10 * 60_000,
    cacheProvider,
    // The request's id; else (SP metadata) one fixed per connection, so its metadata reads the same each time.
    generateUniqueId: () => request?.id ?? `_${sha256Base64Url(`sp-metadata\n${provider.id}`)}`,
    disableRequestedAuthnContext: true,
  });
}

/** A fresh AuthnRequest id (an XML ID: it must not start with a digit). */
export function newSamlRequestId(): string {
  return `_${randomString(40)}`;
}

/** The IdP's SSO URL carrying a deflated AuthnRequest with `requestId` and `relayState`. */
export async function samlAuthorizeURL(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  request: { id: string; issuedAt: string },
  relayState: string,
): Promise<string> {
  const settings = readSamlSettings(provider);
  return (await samlClient(ctx, provider, settings, request)).getAuthorizeUrlAsync(relayState, undefined, {});
}

/**
 * "Test the connection" for SAML: the kept settings pass registration's checks again, every signing
 * certificate is within its validity, and an AuthnRequest can be built from them.
 */
export async function checkSamlConnection(ctx: AuthContext, provider: SsoProviderRecord): Promise<void> {
  const settings = readSamlSettings(provider);
  await samlSettingsFrom(ctx, provider.providerId, settings.idpEntityId, { entryPoint: settings.entryPoint }, settings);
  const now = ctx.now().getTime();
  for (const pem of settings.certs) {
    const cert = new X509Certificate(pem);
    if (Date.parse(cert.validTo) < now) throw invalid(`the IdP signing certificate expired on ${cert.validTo}`);
    if (Date.parse(cert.validFrom) > now)
      throw invalid(`the IdP signing certificate is valid only from ${cert.validFrom}`);
  }
  const client = await samlClient(ctx, provider, settings, {
    id: newSamlRequestId(),
    issuedAt: new Date(now).toISOString(),
  });
  await client.getAuthorizeUrlAsync("", undefined, {});
}

/** GET /sso/saml2/sp/metadata: the SP metadata of a SAML connection (entity id, ACS, signed assertions wanted). */
export async function spMetadataOf(ctx: AuthContext, providerId: string): Promise<string> {
  const provider = await findSsoProvider(ctx.db, providerId);
  if (provider?.type !== "saml") throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  const settings = readSamlSettings(provider);
  return (await samlClient(ctx, provider, settings, null)).generateServiceProviderMetadata(null, null);
}

/** Why a response was refused: the `error=` code sent to the app. */
export class SamlRefusal extends Error {
  constructor(
    readonly code: string,
    readonly detail?: string,
  ) {
    super(code);
  }
}

/** node-saml's error texts, mapped to the codes the app sees. */
function refusalOf(error: unknown): SamlRefusal {
  const text = error instanceof Error ? error.message : String(error);
  const rules: [RegExp, string][] = [
    [/signature/i, "invalid_signature"],
    // node-saml keeps only the subject confirmations within their time window.
    [/expired|not yet valid|NotBefore|NotOnOrAfter|No valid subject confirmation/i, "assertion_expired"],
    [/audience/i, "invalid_audience"],
    [/InResponseTo/i, "invalid_in_response_to"],
    [/issuer/i, "invalid_issuer"],
    [/SAML provider returned/i, "idp_error"],
  ];
  for (const [pattern, code] of rules) if (pattern.test(text)) return new SamlRefusal(code, text);
  return new SamlRefusal("invalid_saml_response", text);
}

type XmlJs = { $?: Record<string, string>; _?: string; [key: string]: unknown };

function first(node: unknown, name: string): XmlJs | undefined {
  const list = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(list) ? (list[0] as XmlJs) : undefined;
}

/** The verified assertion's user: NameID, attributes as claims, and its id and end for replay. */
export interface SamlAssertion {
  nameID: string;
  claims: Claims;
  assertionId: string;
  notOnOrAfter: Date | null;
}

/**
 * Checks a POSTed SAMLResponse against the connection and (SP-initiated) the request it must answer:
 * signatures (the assertion signed, by a certificate of the connection), issuer, audience, times,
 * InResponseTo, then the bearer confirmation's Recipient and the response's Destination, which must
 * be this connection's ACS URL.
 */
export async function verifySamlResponse(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  samlResponse: string,
  request: { id: string; issuedAt: string } | null,
): Promise<SamlAssertion> {
  const settings = readSamlSettings(provider);
  const acs = [acsURLOf(ctx, provider.providerId), altAcsURLOf(ctx, provider.providerId)];
  let profile: Awaited<ReturnType<SAML["validatePostResponseAsync"]>>["profile"];
  try {
    ({ profile } = await (await samlClient(ctx, provider, settings, request)).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    throw refusalOf(error);
  }
  if (!profile) throw new SamlRefusal("invalid_saml_response", "no assertion");
  // Unsolicited: a response that claims to answer a request must not pass as IdP-initiated.
  if (!request && profile.inResponseTo) throw new SamlRefusal("invalid_in_response_to");
  if (request && profile.inResponseTo !== request.id) throw new SamlRefusal("invalid_in_response_to");

  // The assertion as verified (parsed from the signed XML, not from the raw response).
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) throw new SamlRefusal("invalid_saml_response", "assertion without ID");
  checkAssertionIssuer(assertion, settings);
  const subject = first(assertion, "Subject");
  const confirmations = ((subject?.SubjectConfirmation as XmlJs[] | undefined) ?? []).filter(
    (c) => c.$?.Method === "urn:oasis:names:tc:SAML:2.0:cm:bearer",
  );
  const data = confirmations
    .map((c) => first(c, "SubjectConfirmationData")?.$)
    .filter((d): d is Record<string, string> => d !== undefined);
  // One bearer confirmation must hold it all, inside the signed assertion: for this ACS, answering
  // this flow's request (none when unsolicited), and within its time window (on node-saml's clock).
  const now = Date.now();
  const within = (d: Record<string, string>) =>
    (d.NotOnOrAfter === undefined || new Date(d.NotOnOrAfter).getTime() + SAML_CLOCK_SKEW_MS > now) &&
    (d.NotBefore === undefined || new Date(d.NotBefore).getTime() - SAML_CLOCK_SKEW_MS <= now);
  const forUs = data.filter((d) => d.Recipient !== undefined && acs.includes(d.Recipient));
  if (forUs.length === 0) throw new SamlRefusal("invalid_recipient");
  const answering = forUs.filter((d) => (request ? d.InResponseTo === request.id : d.InResponseTo === undefined));
  if (answering.length === 0) throw new SamlRefusal("invalid_in_response_to");
  if (!answering.some(within)) throw new SamlRefusal("assertion_expired");
  const destination = await responseDestination(profile.getSamlResponseXml?.() ?? "");
  if (destination !== null && !acs.includes(destination)) throw new SamlRefusal("invalid_recipient");

  const ends = [first(assertion, "Conditions")?.$?.NotOnOrAfter, ...data.map((d) => d.NotOnOrAfter)]
    .filter((v): v is string => typeof v === "string")
    .map((v) => new Date(v).getTime())
    .filter((t) => Number.isFinite(t));
  const nameID = profile.nameID;
  if (!nameID) throw new SamlRefusal("invalid_saml_response", "no NameID");
  return {
    nameID,
    claims: { ...(profile.attributes ?? {}), nameID },
    assertionId,
    notOnOrAfter: ends.length > 0 ? new Date(Math.max(...ends)) : null,
  };
}

/**
 * The assertion's own Issuer (under its signature) must be the connection's IdP entity id: a key
 * that signs for several entities (one IdP tenant, many apps) must not let another entity's
 * assertion in. node-saml compares the Issuer only on logout messages.
 */
function checkAssertionIssuer(assertion: XmlJs, settings: SamlSettings): void {
  const issuer = (assertion.Issuer as unknown[] | undefined)?.[0];
  const text = typeof issuer === "string" ? issuer : (issuer as XmlJs | undefined)?._;
  if (text?.trim() !== settings.idpEntityId) {
    throw new SamlRefusal("invalid_issuer", `assertion issuer ${JSON.stringify(text ?? null)}`);
  }
}

/** The Destination attribute of the response's root element (optional when only the assertion is signed). */
async function responseDestination(xml: string): Promise<string | null> {
  if (!xml) return null;
  const [, { parseDomFromString, xpath }] = await saml();
  const doc = await parseDomFromString(xml);
  const nodes = xpath.selectAttributes(doc, "/*[local-name()='Response']/@Destination");
  return nodes.length > 0 ? (nodes[0]?.nodeValue ?? null) : null;
}

/**
 * Claims the assertion id once per connection until it can no longer be accepted (its end plus the
 * skew): a replayed assertion loses the claim. One statement on the shared table, so it holds across
 * instances on PostgreSQL.
 */
export async function claimAssertion(ctx: AuthContext, provider: SsoProviderRecord, assertion: SamlAssertion) {
  const now = ctx.now();
  const end = assertion.notOnOrAfter?.getTime() ?? now.getTime() + REPLAY_FALLBACK_MS;
  const expiresAt = new Date(Math.max(end, now.getTime()) + SAML_CLOCK_SKEW_MS);
  const key = `saml-assertion:${sha256Base64Url(`${provider.id}\n${assertion.assertionId}`)}`;
  const claimed = await claimAttempt(ctx.db, key, now, { limit: 1, expiresAt });
  if (claimed === null) throw new SamlRefusal("assertion_replayed");
}

function attribute(claims: Claims, name: string | undefined): string | null {
  if (!name) return null;
  const raw = claims[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** Where IdPs commonly put the email when the connection maps none. */
const EMAIL_ATTRIBUTES = [
  "email",
  "mail",
  "emailAddress",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
  "urn:mace:dir:attribute-def:mail",
];
const NAME_ATTRIBUTES = [
  "name",
  "displayName",
  "http://schemas.microsoft.com/identity/claims/displayname",
  "urn:oid:2.16.840.1.113730.3.1.241",
  "urn:mace:dir:attribute-def:displayName",
];

/** The user fields of a verified assertion, through the connection's attribute mapping. */
export function samlProfile(settings: SamlSettings, assertion: SamlAssertion) {
  const { claims } = assertion;
  const m = settings.mapping;
  const id = attribute(claims, m.id) ?? assertion.nameID;
  const email =
    (m.email ? attribute(claims, m.email) : EMAIL_ATTRIBUTES.map((a) => attribute(claims, a)).find(Boolean)) ??
    (assertion.nameID.includes("@") ? assertion.nameID : null);
  const full = [attribute(claims, m.firstName), attribute(claims, m.lastName)].filter(Boolean).join(" ");
  const name =
    (m.name ? attribute(claims, m.name) : NAME_ATTRIBUTES.map((a) => attribute(claims, a)).find(Boolean)) ||
    full ||
    email?.split("@")[0] ||
    "";
  return { id, email, name, image: null };
}
