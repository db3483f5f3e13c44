import { z } from "zod";
import { timestamp } from "./models.js";

/**
 * Enterprise single sign-on on better-auth's `@better-auth/sso` wire (docs/sso.md): OpenID Connect
 * connections registered per organization, sign-in by work email, organization slug or provider id.
 */

/** A provider id is part of the redirect URI, so it is kept to URL-safe characters. */
export const ssoProviderId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '_' and '-' only (at most 64)");

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** better-auth's `domain`: one domain, or several separated by commas; lowercased and deduplicated. */
export const ssoDomains = z
  .string()
  .max(2000)
  .transform((value, ctx) => {
    const domains = [
      ...new Set(
        value
          .split(",")
          .map((d) => d.trim().toLowerCase())
          .filter(Boolean),
      ),
    ];
    if (domains.length === 0 || domains.length > 20) {
      ctx.addIssue({ code: "custom", message: "must name 1 to 20 email domains" });
      return z.NEVER;
    }
    for (const domain of domains) {
      if (!DOMAIN.test(domain)) {
        ctx.addIssue({ code: "custom", message: "must be email domains such as example.com" });
        return z.NEVER;
      }
    }
    return domains;
  });

const claimName = z.string().trim().min(1).max(100);

/** Which ID-token or user-info claim holds each user field (better-auth's `oidcConfig.mapping`). */
export const ssoClaimMapping = z.object({
  id: claimName.optional(),
  email: claimName.optional(),
  emailVerified: claimName.optional(),
  name: claimName.optional(),
  image: claimName.optional(),
});

const roleName = z.string().trim().min(1).max(100);

/**
 * Gatehouse's addition: the role a claim's value gives on joining (e.g. `groups` containing
 * "idp-admins" -> "admin"); the first matching value in `values`' order wins.
 */
export const ssoRoleMapping = z.object({
  claim: claimName,
  values: z.record(z.string().min(1).max(200), roleName).refine((v) => Object.keys(v).length <= 50, {
    message: "at most 50 values",
  }),
});

const scopes = z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/, "not a scope")).max(30);

export const oidcConfigInput = z.object({
  clientId: z.string().min(1).max(500),
  clientSecret: z.string().min(1).max(2000),
  /** Defaults to `<issuer>/.well-known/openid-configuration`; only that document is read. */
  discoveryEndpoint: z.url().optional(),
  scopes: scopes.optional(),
  /** PKCE is always used; `false` is refused rather than silently ignored. */
  pkce: z.literal(true).optional(),
  mapping: ssoClaimMapping.optional(),
});

/** Which SAML attribute holds each user field (better-auth's `samlConfig.mapping`). */
export const ssoAttributeMapping = z.object({
  id: claimName.optional(),
  email: claimName.optional(),
  emailVerified: claimName.optional(),
  name: claimName.optional(),
  firstName: claimName.optional(),
  lastName: claimName.optional(),
});

const pem = z.string().trim().min(1).max(20_000);
const samlURL = z.url({ protocol: /^https?$/ }).max(2000);

/**
 * better-auth's `samlConfig`. The IdP is described by `entryPoint` (its SSO URL) and `cert` (its
 * signing certificate), or by its metadata XML in `idpMetadata.metadata`. Signed assertions are always
 * required: `wantAssertionsSigned: false` is refused rather than ignored. The SP entity id (the
 * audience the IdP must name) is `audience`, else `issuer`, else `spMetadata.entityID`, else the SP
 * metadata URL.
 */
export const samlConfigInput = z.object({
  entryPoint: samlURL.optional(),
  cert: pem.optional(),
  /** The ACS URL; when given it must be this service's own for the connection. */
  callbackUrl: z.string().max(2000).optional(),
  audience: z.string().trim().min(1).max(500).optional(),
  issuer: z.string().trim().min(1).max(500).optional(),
  idpMetadata: z
    .object({
      metadata: z.string().max(100_000).optional(),
      entityID: z.string().trim().min(1).max(500).optional(),
      cert: pem.optional(),
      isAssertionEncrypted: z.literal(false).optional(),
      singleSignOnService: z
        .array(z.object({ Binding: z.string().max(200), Location: samlURL }))
        .max(10)
        .optional(),
    })
    .optional(),
  spMetadata: z
    .object({
      metadata: z.string().max(100_000).optional(),
      entityID: z.string().trim().min(1).max(500).optional(),
      binding: z.string().max(200).optional(),
    })
    .optional(),
  wantAssertionsSigned: z.literal(true).optional(),
  identifierFormat: z.string().trim().min(1).max(200).optional(),
  mapping: ssoAttributeMapping.optional(),
});
export type SamlConfigInput = z.output<typeof samlConfigInput>;

export const registerSSOProviderBody = z.object({
  providerId: ssoProviderId,
  issuer: z.url().max(500),
  domain: ssoDomains,
  /** Defaults to the caller's active organization. */
  organizationId: z.string().min(1).optional(),
  oidcConfig: oidcConfigInput.optional(),
  /** A SAML connection instead of an OpenID Connect one (exactly one of the two). */
  samlConfig: samlConfigInput.optional(),
  /** Role a first SSO sign-in joins the organization with (default "member"). */
  defaultRole: roleName.optional(),
  roleMapping: ssoRoleMapping.optional(),
});
export type RegisterSSOProviderBody = z.output<typeof registerSSOProviderBody>;

export const updateSSOProviderBody = z.object({
  providerId: ssoProviderId,
  issuer: z.url().max(500).optional(),
  domain: ssoDomains.optional(),
  oidcConfig: oidcConfigInput.partial().optional(),
  samlConfig: samlConfigInput.optional(),
  defaultRole: roleName.optional(),
  roleMapping: ssoRoleMapping.nullable().optional(),
});
export type UpdateSSOProviderBody = z.output<typeof updateSSOProviderBody>;

export const ssoProviderIdBody = z.object({ providerId: ssoProviderId });
export const ssoProviderIdQuery = z.object({ providerId: ssoProviderId });

export const signInSSOBody = z.object({
  email: z.string().trim().max(320).optional(),
  organizationSlug: z.string().trim().min(1).max(200).optional(),
  providerId: ssoProviderId.optional(),
  domain: z.string().trim().toLowerCase().max(253).optional(),
  callbackURL: z.string().min(1),
  errorCallbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  scopes: scopes.optional(),
  loginHint: z.string().max(320).optional(),
  requestSignUp: z.boolean().optional(),
  providerType: z.enum(["oidc", "saml"]).optional(),
});
export type SignInSSOBody = z.output<typeof signInSSOBody>;

export const ssoDomainModel = z.object({
  domain: z.string(),
  verified: z.boolean(),
  /**
   * Gatehouse's addition: the domain was proven for the connection's current issuer (SAML: entity
   * id). False after the issuer changed: nobody who already exists signs in through it until then.
   */
  provenForIssuer: z.boolean().optional(),
});

/** A connection as its organization's owners see it: never the client secret. */
export const ssoProviderModel = z.object({
  providerId: z.string(),
  type: z.enum(["oidc", "saml"]),
  issuer: z.string(),
  /** The domains, comma separated, as better-auth answers `domain`. */
  domain: z.string(),
  domains: z.array(ssoDomainModel),
  /** Whether every domain is verified (better-auth's single flag). */
  domainVerified: z.boolean(),
  organizationId: z.string(),
  /** What to register at the identity provider: the OIDC redirect URI, or the SAML ACS URL. */
  redirectURI: z.string(),
  oidcConfig: z
    .object({
      clientIdLastFour: z.string(),
      discoveryEndpoint: z.string(),
      scopes: z.array(z.string()),
      pkce: z.literal(true),
      mapping: ssoClaimMapping,
    })
    .optional(),
  /** SAML connections: what the IdP was given and what its admin enters. */
  samlConfig: z
    .object({
      /** The IdP's entity id (the Issuer of its responses). */
      idpEntityId: z.string(),
      entryPoint: z.string(),
      /** SHA-256 fingerprints of the IdP signing certificates trusted. */
      certFingerprints: z.array(z.string()),
      /** The SP entity id: the audience the IdP must name. */
      audience: z.string(),
      /** The Assertion Consumer Service URL (HTTP-POST). */
      callbackUrl: z.string(),
      spMetadataURL: z.string(),
      wantAssertionsSigned: z.literal(true),
      identifierFormat: z.string().nullable(),
      mapping: ssoAttributeMapping,
    })
    .optional(),
  defaultRole: z.string(),
  roleMapping: ssoRoleMapping.nullable(),
  /**
   * Gatehouse's addition: a change of who asserts identity (issuer, client, claim mapping, SAML
   * settings) staged by an owner, applied only when an owner confirms it (docs/sso.md).
   */
  pendingChange: z
    .object({ fields: z.array(z.string()), requestedBy: z.string().nullable(), requestedAt: timestamp.nullable() })
    .nullable()
    .optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type SSOProviderView = z.input<typeof ssoProviderModel>;

export const domainVerificationReply = z.object({
  domainVerificationToken: z.string(),
  /** Gatehouse's addition: where each TXT record goes and what it says. */
  records: z.array(z.object({ domain: z.string(), name: z.string(), value: z.string() })),
});

export const verifyDomainReply = z.object({
  verified: z.boolean(),
  domains: z.array(ssoDomainModel),
});

/**
 * Gatehouse's addition: whether a saved connection's IdP side looks usable now. Failing is an
 * answer, not an error: `error` carries the code a registration would have answered.
 */
export const testConnectionReply = z.object({
  ok: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export const spMetadataQuery = z.object({
  providerId: ssoProviderId,
  format: z.enum(["xml", "json"]).default("xml"),
});

/** The IdP's HTTP-POST to the Assertion Consumer Service (form or JSON). */
export const samlResponseBody = z.object({
  /** base64 XML; 512 KiB is far past any real response. */
  SAMLResponse: z
    .string()
    .min(1)
    .max(512 * 1024),
  RelayState: z.string().max(2000).optional(),
});

/**
 * A test sign-in: the connection, and optionally the page (relative or on a trusted origin) the
 * browser comes back to with `ssoTestId=<id>` in its query (else the result route itself).
 */
export const ssoTestSignInBody = z.object({
  providerId: ssoProviderId,
  callbackURL: z.string().min(1).max(2048).optional(),
});

/** A test sign-in's result, read by whoever started it (docs/sso.md, "Test a connection"). */
export const ssoTestIdQuery = z.object({ testId: z.string().min(1).max(64) });

export const ssoTestResultReply = z.object({
  testId: z.string(),
  providerId: z.string(),
  /** What the provider sent (ID token and user info claims), or null when its answer was unreadable. */
  claims: z.record(z.string(), z.unknown()).nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** The role the connection's mapping gives this answer (never the owner role). */
  role: z.string().nullable(),
  /** Whether the email's domain is verified for this connection (a real sign-in needs it). */
  domainVerified: z.boolean(),
  /** The `error=` code a real sign-in with this answer would be refused with; null when it would pass. */
  refusal: z.string().nullable(),
  createdAt: z.string(),
});
export type SSOTestResult = z.infer<typeof ssoTestResultReply>;
