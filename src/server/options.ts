import { z } from "zod";
import { JWT_SIGNING_ALGORITHMS } from "../contract/jwt.js";
import { additionalFields } from "./additional-field-options.js";
import { ORGANIZATION_EVENTS, secretFormatProblem, WEBHOOK_EVENTS } from "./webhook-settings.js";

/**
 * The JSON options (docs/configuration.md), parsed once into a frozen, fully defaulted object.
 * Names follow better-auth's so its users feel at home; where that library takes a
 * function (a mailer), the JSON takes a boolean that switches the built-in mail on or off.
 * Unknown keys are refused so that a typo never silently falls back to a default.
 */

const seconds = z.number().int().nonnegative();
const positiveSeconds = z.number().int().positive();

const emailAndPassword = z
  .strictObject({
    enabled: z.boolean().default(true),
    disableSignUp: z.boolean().default(false),
    requireEmailVerification: z.boolean().default(false),
    autoSignIn: z.boolean().default(true),
    minPasswordLength: z.number().int().min(1).default(8),
    maxPasswordLength: z.number().int().min(1).default(128),
    sendResetPassword: z.boolean().default(true),
    resetPasswordTokenExpiresIn: positiveSeconds.default(3600),
    revokeSessionsOnPasswordReset: z.boolean().default(true),
    /** Imported users' hashes from other systems (crypto/legacy-hashes.ts, docs/migrating.md). */
    legacyHashes: z
      .strictObject({
        refuseWeak: z.boolean().default(false),
        firebaseScrypt: z.strictObject({ signerKey: z.base64().min(1), saltSeparator: z.base64() }).optional(),
      })
      .prefault({}),
  })
  .refine((o) => o.minPasswordLength <= o.maxPasswordLength, {
    message: "minPasswordLength must not exceed maxPasswordLength",
    path: ["minPasswordLength"],
  });

const emailVerification = z.strictObject({
  sendVerificationEmail: z.boolean().default(true),
  /**
   * Defaults to emailAndPassword.requireEmailVerification, or true with two-factor or passkeys on:
   * adding a factor needs a verified address (resolved below).
   */
  sendOnSignUp: z.boolean().optional(),
  sendOnSignIn: z.boolean().default(false),
  autoSignInAfterVerification: z.boolean().default(false),
  expiresIn: positiveSeconds.default(3600),
});

const session = z.strictObject({
  /** Columns of the app's own on the session (docs/configuration.md#additional-fields). */
  additionalFields: additionalFields("session"),
  expiresIn: positiveSeconds.default(604800),
  updateAge: seconds.default(86400),
  /** Sliding expiry never extends a session past this long after sign-in (30 days). */
  absoluteLifetime: positiveSeconds.default(2592000),
  /** 0 turns the freshness check off. */
  freshAge: seconds.default(86400),
  cookieCache: z
    .strictObject({
      enabled: z.boolean().default(false),
      maxAge: positiveSeconds.default(300),
    })
    .prefault({}),
});

const account = z.strictObject({
  accountLinking: z
    .strictObject({
      enabled: z.boolean().default(true),
      trustedProviders: z.array(z.string().min(1)).default([]),
      allowDifferentEmails: z.boolean().default(false),
      allowUnlinkingAll: z.boolean().default(false),
    })
    .prefault({}),
});

const user = z.strictObject({
  /** Columns of the app's own on the user (docs/configuration.md#additional-fields). */
  additionalFields: additionalFields("user"),
  changeEmail: z
    .strictObject({
      enabled: z.boolean().default(false),
      sendChangeEmailConfirmation: z.boolean().default(true),
    })
    .prefault({}),
  deleteUser: z
    .strictObject({
      enabled: z.boolean().default(false),
      sendDeleteAccountVerification: z.boolean().default(false),
      deleteTokenExpiresIn: positiveSeconds.default(86400),
    })
    .prefault({}),
});

/** One social provider: a preset by id (google, github, ...) or a generic OpenID Connect issuer. */
const socialProvider = z.looseObject({
  clientId: z.string().min(1),
  clientSecret: z.string().default(""),
  issuer: z.url().optional(),
  scopes: z.array(z.string()).optional(),
  disableSignUp: z.boolean().default(false),
  authorizationEndpoint: z.url().optional(),
  tokenEndpoint: z.url().optional(),
  userInfoEndpoint: z.url().optional(),
  jwksUri: z.url().optional(),
  redirectURI: z.url().optional(),
  /** Sent as the authorization request's prompt (e.g. "consent" to get a refresh token again). */
  prompt: z.string().optional(),
  /** Google: "offline" asks for a refresh token. */
  accessType: z.enum(["offline", "online"]).optional(),
  /** "form_post" makes the provider POST the callback (Apple does by default). */
  responseMode: z.enum(["query", "form_post"]).optional(),
  /** Microsoft: the tenant whose endpoints and issuer are used (default "common"). */
  tenantId: z.string().optional(),
});

const rateLimitRule = z.union([
  z.strictObject({ window: positiveSeconds, max: z.number().int().positive() }),
  z.literal(false),
]);

const rateLimit = z.strictObject({
  enabled: z.boolean().default(true),
  window: positiveSeconds.default(10),
  max: z.number().int().positive().default(100),
  /** Exact path or a pattern ending in `*`, relative to the auth base path; `false` exempts a path. */
  customRules: z.record(z.string(), rateLimitRule).default({}),
});

const teams = z.strictObject({
  enabled: z.boolean().default(false),
  maximumTeams: z.number().int().positive().optional(),
  maximumMembersPerTeam: z.number().int().positive().optional(),
  allowRemovingAllTeams: z.boolean().default(false),
  defaultTeam: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
  /**
   * Team roles (docs/configuration.md, "Team roles"): roles a member may hold within a team, in the
   * organization roles' statement format. Empty (the default): teams have no roles.
   */
  roles: z.record(z.string(), z.record(z.string(), z.array(z.string()))).default({}),
});

/** A role's statements: resource -> allowed actions (docs/configuration.md, "Administration"). */
const roleStatements = z.record(z.string(), z.array(z.string()));

const organization = z.strictObject({
  enabled: z.boolean().default(true),
  /** Columns of the app's own on the organization (docs/configuration.md#additional-fields). */
  additionalFields: additionalFields("organization"),
  allowUserToCreateOrganization: z.boolean().default(true),
  organizationLimit: z.number().int().positive().optional(),
  membershipLimit: z.number().int().positive().default(100),
  invitationLimit: z.number().int().positive().default(100),
  /** Invitations one user may create in 24 hours, across organizations (anti-spam). */
  invitationsPerInviterPerDay: z.number().int().positive().default(100),
  /**
   * Only users whose address is verified may invite. Off as in better-auth, where nobody could invite
   * without verification mail at sign-up; on with emailAndPassword.requireEmailVerification (docs/security.md).
   */
  requireVerifiedInviter: z.boolean().default(false),
  creatorRole: z.string().min(1).default("owner"),
  invitationExpiresIn: positiveSeconds.default(172800),
  requireEmailVerificationOnInvitation: z.boolean().default(false),
  sendInvitationEmail: z.boolean().default(true),
  /** Extra or replacement roles, in the same statement format as the built-in ones. */
  roles: z.record(z.string(), roleStatements).default({}),
  teams: teams.prefault({}),
});

const advanced = z.strictObject({
  cookiePrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, '_' and '-' only")
    .default("gatehouse"),
  /** Defaults to whether BASE_URL is https (resolved below). */
  useSecureCookies: z.boolean().optional(),
  ipAddress: z
    .strictObject({
      /**
       * Headers that carry the client IP, trusted only when listed here (behind a proxy that
       * sets them). Empty: the socket address is used, so a client cannot pick its own bucket.
       */
      ipAddressHeaders: z.array(z.string().min(1)).default([]),
      disableIpTracking: z.boolean().default(false),
    })
    .prefault({}),
});

const anonymous = z.strictObject({
  enabled: z.boolean().default(true),
  emailDomainName: z.string().optional(),
});

const oneTap = z.strictObject({
  enabled: z.boolean().default(true),
  clientId: z.string().optional(),
});

const admin = z.strictObject({
  enabled: z.boolean().default(true),
  /** Role given to new users. */
  defaultRole: z.string().min(1).default("user"),
  /** Roles that hold the admin permission set. */
  adminRoles: z.array(z.string().min(1)).default(["admin"]),
  /** Users who hold the admin set whatever their role (for bootstrapping the first admin). */
  adminUserIds: z.array(z.string().min(1)).default([]),
  impersonationSessionDuration: positiveSeconds.default(3600),
  allowImpersonatingAdmins: z.boolean().default(false),
  /** Let an admin update, re-role, ban, remove or set the password of another admin. */
  allowManagingAdmins: z.boolean().default(false),
  /** Extra or replacement admin roles: role -> resource -> actions. */
  roles: z.record(z.string(), roleStatements).default({}),
});

const jwt = z.strictObject({
  enabled: z.boolean().default(true),
  /** Lifetime of a token from GET /token. */
  expirationTime: positiveSeconds.default(900),
  /** Defaults to BASE_URL. */
  issuer: z.string().min(1).optional(),
  /** Defaults to BASE_URL. */
  audience: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** Send a fresh token in a `set-auth-jwt` header on every get-session that finds a session. */
  setAuthJwtHeader: z.boolean().default(false),
  /** Sign with a new key once the newest is this old; old keys keep verifying for gracePeriod more. */
  rotationInterval: positiveSeconds.optional(),
  gracePeriod: positiveSeconds.default(2592000),
  /**
   * The key pair's algorithm, as better-auth's jwt plugin names it (`jwks.keyPairConfig.alg`): one for
   * every token this server signs (session tokens, OAuth access and ID tokens). EdDSA by default;
   * RS256 where a relying party or OpenID certification needs it. A change makes the next key at
   * once; tokens signed by the previous one verify while it lives (docs/oauth-provider.md).
   */
  jwks: z
    .strictObject({
      keyPairConfig: z.strictObject({ alg: z.enum(JWT_SIGNING_ALGORITHMS).default("EdDSA") }).prefault({}),
    })
    .prefault({}),
});

const twoFactor = z.strictObject({
  enabled: z.boolean().default(false),
  /** The name authenticator apps show; the BASE_URL's host when unset. */
  issuer: z.string().min(1).max(100).optional(),
  backupCodes: z
    .strictObject({
      amount: z.number().int().min(1).max(50).default(10),
      length: z.number().int().min(8).max(32).default(10),
    })
    .prefault({}),
  /** Turn two-factor on at /two-factor/enable without first proving a code from the app. */
  skipVerificationOnEnable: z.boolean().default(false),
  /** How long "trust this device" skips the second factor. */
  trustDeviceDays: z.number().int().min(1).max(365).default(30),
  /** Codes by mail as a second factor at sign-in. */
  otp: z
    .strictObject({ enabled: z.boolean().default(true), period: positiveSeconds.max(3600).default(300) })
    .prefault({}),
});

const magicLink = z.strictObject({
  enabled: z.boolean().default(false),
  /** How long a link works, in seconds. */
  expiresIn: positiveSeconds.max(86400).default(300),
  /** Only existing users may sign in by link; unknown addresses get no account. */
  disableSignUp: z.boolean().default(false),
});

const emailOTP = z.strictObject({
  enabled: z.boolean().default(false),
  otpLength: z.number().int().min(4).max(12).default(6),
  /** How long a code works, in seconds. */
  expiresIn: positiveSeconds.max(86400).default(300),
  /** Wrong guesses one code takes before it is void. */
  allowedAttempts: z.number().int().min(1).max(20).default(3),
  /** Mail a verification code (instead of nothing) when someone signs up with a password. */
  sendVerificationOnSignUp: z.boolean().default(false),
  /** Verification mails carry a code instead of a link. */
  overrideDefaultEmailVerification: z.boolean().default(false),
  /** Only existing users may sign in with a code. */
  disableSignUp: z.boolean().default(false),
});

const passkey = z.strictObject({
  enabled: z.boolean().default(false),
  /** The name authenticators show; options.appName when unset. */
  rpName: z.string().min(1).max(100).optional(),
  /** The relying party id: BASE_URL's host when unset (or a registrable parent of it). */
  rpID: z.string().min(1).optional(),
  /** The origin the browser reports: BASE_URL's origin when unset. */
  origin: z.string().url().optional(),
});

/**
 * The SCIM 2.0 server (docs/scim.md): an organization's directory provisions its members with a
 * bearer token its owner generates. Needs organizations on.
 */
const scim = z.strictObject({
  enabled: z.boolean().default(false),
  /**
   * The app's own user fields (user.additionalFields) filled from the User resource a directory
   * creates: field name -> SCIM attribute (`title`, or an extension's
   * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`). Read on create.
   */
  userFields: z.record(z.string(), z.string().min(1)).default({}),
});

/** A DNS server address: an IPv4 or IPv6 address, with an optional port (`127.0.0.1:5353`, `[::1]:53`). */
const dnsServer = z
  .string()
  .regex(
    /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|\[[0-9a-fA-F:]+\](?::\d{1,5})?|[0-9a-fA-F:]+)$/,
    "must be an IP address with an optional port, e.g. 127.0.0.1:5353",
  );

/** Enterprise single sign-on per organization (docs/sso.md). */
const sso = z.strictObject({
  enabled: z.boolean().default(false),
  /** The DNS servers domain verification asks; the system's resolvers when empty. */
  dnsResolvers: z.array(dnsServer).default([]),
  /**
   * Lets connections name issuers on loopback or private addresses (an IdP inside your own network,
   * or tests). Off: the server never fetches such an address for a tenant, by name or literal.
   */
  allowPrivateIssuers: z.boolean().default(false),
  domainVerification: z
    .strictObject({
      /** The TXT record reads `<tokenPrefix>-<providerId>=<token>` (better-auth's default prefix). */
      tokenPrefix: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,40}$/, "letters, digits, '_' and '-' only")
        .default("better-auth-token"),
      /** How long a verification token stays valid, in seconds (a week). */
      expiresIn: positiveSeconds.default(604800),
    })
    .prefault({}),
  saml: z
    .strictObject({
      /**
       * Accept unsolicited responses (sign-in started at the IdP's portal). Off: every response must
       * answer an AuthnRequest this service issued.
       */
      allowIdpInitiated: z.boolean().default(false),
    })
    .prefault({}),
});

/** A receiver of signed event notifications (docs/webhooks.md). */
const webhook = z
  .strictObject({
    url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    /** Standard Webhooks secret: `whsec_` + base64 of 24 to 64 random bytes. */
    secret: z.string().superRefine((secret, ctx) => {
      const problem = secretFormatProblem(secret);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .refine((events) => new Set(events).size === events.length, "lists an event twice"),
    /** An organization's own subscription: only events of that organization (its audit entries, ...). */
    organizationId: z.string().min(1).max(200).optional(),
  })
  .refine((hook) => hook.organizationId === undefined || hook.events.every((event) => ORGANIZATION_EVENTS.has(event)), {
    path: ["events"],
    message:
      "an organization's webhook takes only events of organizations (organization.*, member.*, invitation.*, audit.entry)",
  });

const webhooks = z
  .array(webhook)
  .refine((list) => new Set(list.map((w) => w.url)).size === list.length, "two webhooks have the same url");

/**
 * Webhooks an organization's owners add themselves (docs/webhooks.md): the service then POSTs to URLs
 * a tenant names, so they must be https and reach public addresses only, checked where they are dialled.
 */
const organizationWebhooks = z.strictObject({
  /** The owners' /organization/*-webhook routes and their deliveries (needs `organization.enabled`). */
  enabled: z.boolean().default(false),
  /** How many webhooks one organization may have. */
  maxPerOrganization: z.number().int().min(1).max(100).default(10),
  /**
   * Lets webhooks name receivers on loopback or private addresses (plain http on loopback). Only
   * where every organization owner is trusted with your internal network (tests, a private install).
   */
  allowPrivateUrls: z.boolean().default(false),
});

/** A page mails and redirects link to (pages.ts checks it against BASE_URL and trustedOrigins). */
const pageOption = z.union([
  z.string().min(1),
  z.custom<(params: Readonly<Record<string, string | undefined>>) => string>(
    (value) => typeof value === "function",
    "must be a path, an absolute URL, or (from code) a function building the URL",
  ),
]);

/**
 * The application pages mails and redirects send a browser to (pages.ts): a path on BASE_URL or an
 * absolute URL on a trusted origin. The defaults are the bundled application's pages.
 */
const pages = z.strictObject({
  /** Where a reset link lands once the API has checked its token (`?token=` or `?error=` added). */
  resetPassword: pageOption.default("/reset-password"),
  /** The confirmation page a magic-link mail points at (`?token=&callbackURL=`...). */
  magicLink: pageOption.default("/magic-link"),
  /** Confirms a verification link that signs in, when it is followed as a navigation (`?token=`). */
  verifyEmail: pageOption.default("/verify-email"),
  /** The invitation mail's page; `:id` is the invitation id. */
  acceptInvitation: pageOption.default("/accept-invitation/:id"),
  /** The new-device mail's "Not you? Secure your account" page (`?token=`). */
  secureAccount: pageOption.default("/secure-account"),
  /** Where /error redirects in production (`?error=&error_description=`). */
  error: pageOption.default("/"),
});

/** Pruning of rows that can never be used again (services/housekeeping.ts, docs/configuration.md). */
const housekeeping = z.strictObject({
  enabled: z.boolean().default(true),
  /** Seconds from the end of one sweep of this instance to its next. */
  interval: positiveSeconds.max(86400).default(60),
  /** Most rows one DELETE statement removes: its locks and its time stay small. */
  batchSize: z.number().int().min(1).max(10_000).default(1000),
  /**
   * Seconds delivered mail and delivered webhooks are kept (default a week, for the development
   * outbox page and support questions); given-up webhooks keep their 30 days.
   */
  deliveredRetention: positiveSeconds.max(365 * 86400).default(7 * 86400),
});

/** Prometheus metrics (docs/operations.md): served on the service's port at `path` when enabled. */
const metrics = z.strictObject({
  enabled: z.boolean().default(false),
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, "must be a path starting with '/' (letters, digits, '.', '_', '~', '-', '/')")
    .default("/metrics"),
  /** When set, a scrape must send `Authorization: Bearer <token>`; otherwise it is answered 401. */
  token: z.string().min(16, "must be at least 16 characters").optional(),
});

/** The security audit trail (docs/audit.md). */
const audit = z.strictObject({
  /** Record every security event in the hash-chained trail. */
  enabled: z.boolean().default(false),
  /** Entries older than this many days are pruned from the chain's start (by housekeeping); unset: kept. */
  retentionDays: z.number().int().min(1).max(36500).optional(),
  /**
   * A request refused by the rate limiter or the origin check is audited at most once per client,
   * endpoint and error code in this many seconds (a flood of refusals must not flood the trail).
   */
  refusalWindowSeconds: z.number().int().min(1).max(86400).default(60),
  /**
   * An entry left unsealed (not yet numbered and hash-chained) longer than this is an alert: `gatehouse
   * audit verify` flags it and gatehouse_audit_unsealed_oldest_seconds shows it (docs/audit.md).
   */
  sealWithinSeconds: z.number().int().min(1).max(86400).default(10),
});

/** The OAuth 2.1 authorization server and OpenID provider (docs/oauth-provider.md). Off by default. */
const oauthProvider = z.strictObject({
  enabled: z.boolean().default(false),
  /** The app's sign-in page: the authorization request's signed query is appended. */
  loginPage: z.string().min(1).default("/sign-in"),
  /** The app's consent page, which posts the user's answer to /oauth2/consent. */
  consentPage: z.string().min(1).default("/oauth/consent"),
  /** The scopes clients may ask for (a client may be limited to fewer). */
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/))
    .min(1)
    .default(["openid", "profile", "email", "offline_access"]),
  /**
   * Resource indicators (RFC 8707) access tokens may be bound to, besides the issuer itself
   * (which UserInfo answers for). A `resource` outside this list is refused with invalid_target.
   */
  validAudiences: z.array(z.url()).default([]),
  accessTokenExpiresIn: positiveSeconds.max(86400).default(3600),
  idTokenExpiresIn: positiveSeconds.max(86400).default(3600),
  /** A refresh token's lifetime; each use rotates it and starts a new one. */
  refreshTokenExpiresIn: positiveSeconds.default(30 * 86400),
  /** The app's page where a user types a device's code (RFC 8628 verification_uri). */
  deviceVerificationPage: z.string().min(1).default("/device"),
  /** How long a device has to be approved. */
  deviceCodeExpiresIn: positiveSeconds.max(3600).default(1800),
  /** The least seconds between a device's polls; a faster poll is answered slow_down. */
  devicePollingInterval: positiveSeconds.max(60).default(5),
  /** Dynamic client registration (RFC 7591, POST /oauth2/register) by signed-in users. */
  allowDynamicClientRegistration: z.boolean().default(false),
  /** ...and by anyone, without a session (MCP clients register so); needs the switch above. */
  allowUnauthenticatedClientRegistration: z.boolean().default(false),
  /**
   * Client ID Metadata Documents: a `client_id` that is an https URL names a public client whose
   * metadata (name, redirect URIs) the server fetches from that URL (docs/oauth-provider.md).
   */
  clientIdMetadataDocuments: z.boolean().default(false),
  /**
   * Lets metadata documents and back-channel logout URIs be on loopback or private addresses (an
   * internal network, or tests). Off: the server never dials such an address for a client.
   */
  allowPrivateUrls: z.boolean().default(false),
  /**
   * Origins of browser-based clients that may call the token, UserInfo and revocation endpoints
   * (and discovery and the key set) from their pages: exact origins, e.g. `https://app.example.com`.
   */
  corsOrigins: z
    .array(
      z.url().refine((value) => new URL(value).origin === value, "must be an origin, e.g. https://app.example.com"),
    )
    .default([]),
});

/** Security activity for users (docs/security-activity.md): the account's sign-ins and devices, the new-device mail. */
const securityActivity = z.strictObject({
  /** GET /security-activity, the new-device mail and its "Not you?" link (POST /secure-account). */
  enabled: z.boolean().default(false),
  /** How long the "Not you? Secure your account" link works, in seconds (default 7 days). */
  secureLinkExpiresIn: z
    .number()
    .int()
    .min(300)
    .max(30 * 86400)
    .default(7 * 86400),
});

/** API keys (docs/api-keys.md; better-auth's apiKey plugin options where they mean the same). */
const apiKey = z.strictObject({
  /** The /api-key/* routes and x-api-key callers. */
  enabled: z.boolean().default(false),
  /**
   * Put before each new key unless the creator names one. With the key's checksum suffix it lets
   * secret scanners recognise a leaked key.
   */
  defaultPrefix: z
    .string()
    .max(32)
    .regex(/^[a-zA-Z0-9_-]*$/)
    .default("gk_"),
  /** Request headers a key may come in, first found wins. */
  apiKeyHeaders: z.array(z.string().min(1).max(64)).min(1).max(4).default(["x-api-key"]),
  /** Also take a key from `Authorization: Bearer <key>` (a key is told from a session token by its checksum). */
  bearer: z.boolean().default(false),
  requireName: z.boolean().default(false),
  minimumNameLength: z.number().int().min(0).max(255).default(1),
  maximumNameLength: z.number().int().min(1).max(255).default(32),
  minimumPrefixLength: z.number().int().min(0).max(32).default(1),
  maximumPrefixLength: z.number().int().min(1).max(32).default(32),
  /** Whether keys may carry metadata (better-auth's enableMetadata). */
  enableMetadata: z.boolean().default(false),
  keyExpiration: z
    .strictObject({
      /** Seconds; null: keys do not expire unless the creator says so. */
      defaultExpiresIn: z.number().int().min(1).nullable().default(null),
      disableCustomExpiresTime: z.boolean().default(false),
      /** Days. */
      minExpiresIn: z.number().min(0).default(1),
      /** Days. */
      maxExpiresIn: z.number().min(0).default(365),
    })
    .prefault({}),
  /** Seconds a rotated key's replaced key keeps working unless the rotation says otherwise (0: none). */
  rotationGracePeriod: z
    .number()
    .int()
    .min(0)
    .max(30 * 86400)
    .default(86400),
  /** Each key's requests per window, shared by every instance through the rate-limit store. */
  rateLimit: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** Milliseconds. */
      timeWindow: z.number().int().min(1000).default(60_000),
      maxRequests: z.number().int().min(1).default(600),
    })
    .prefault({}),
});

export const authOptionsSchema = z.strictObject({
  /** The product's name in mail (header, footer) and as the default passkey and authenticator name. */
  appName: z.string().trim().min(1).max(60).default("Gatehouse"),
  emailAndPassword: emailAndPassword.prefault({}),
  emailVerification: emailVerification.prefault({}),
  session: session.prefault({}),
  account: account.prefault({}),
  user: user.prefault({}),
  socialProviders: z.record(z.string().regex(/^[a-z0-9_-]+$/i), socialProvider).default({}),
  trustedOrigins: z.array(z.string().min(1)).default([]),
  rateLimit: rateLimit.prefault({}),
  organization: organization.prefault({}),
  anonymous: anonymous.prefault({}),
  oneTap: oneTap.prefault({}),
  admin: admin.prefault({}),
  jwt: jwt.prefault({}),
  twoFactor: twoFactor.prefault({}),
  magicLink: magicLink.prefault({}),
  emailOTP: emailOTP.prefault({}),
  passkey: passkey.prefault({}),
  scim: scim.prefault({}),
  sso: sso.prefault({}),
  advanced: advanced.prefault({}),
  webhooks: webhooks.default([]),
  organizationWebhooks: organizationWebhooks.prefault({}),
  pages: pages.prefault({}),
  housekeeping: housekeeping.prefault({}),
  metrics: metrics.prefault({}),
  audit: audit.prefault({}),
  securityActivity: securityActivity.prefault({}),
  apiKey: apiKey.prefault({}),
  oauthProvider: oauthProvider.prefault({}),
});

/** T readonly at every level, so a value written `as const` fits (a mutable one still does). */
type ReadonlyDeep<T> = T extends readonly (infer E)[]
  ? readonly ReadonlyDeep<E>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;

/** Options as written in AUTH_CONFIG: every key optional. */
export type AuthOptionsInput = ReadonlyDeep<z.input<typeof authOptionsSchema>>;

/** Options after defaults, with the derived defaults resolved. */
export type AuthOptions = z.output<typeof authOptionsSchema> & {
  emailVerification: { sendOnSignUp: boolean };
  advanced: { useSecureCookies: boolean };
};

/** Thrown at start-up for a wrong option; the message names the option and what it accepts. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

function describeIssues(error: z.ZodError, source: string): string {
  return error.issues
    .map((issue) => {
      const key = issue.path.length > 0 ? issue.path.join(".") : "(root)";
      return `${source}: option "${key}": ${issue.message}`;
    })
    .join("\n");
}

/** Parses and defaults the options; throws ConfigError naming every wrong key. */
export function resolveOptions(
  input: unknown,
  context: { baseURL: string; source?: string; production?: boolean },
): Readonly<AuthOptions> {
  const source = context.source ?? "options";
  refuseCodeOnlyKeys(input, source);
  const parsed = authOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, source));
  const options = parsed.data;
  if (context.production) refusePlainHttpWebhooks(options.webhooks, source);
  if (options.scim.enabled && !options.organization.enabled) {
    throw new ConfigError(
      `${source}: option "scim.enabled": needs organization.enabled (a directory provisions an organization)`,
    );
  }
  for (const field of Object.keys(options.scim.userFields)) {
    if (!Object.hasOwn(options.user.additionalFields ?? {}, field)) {
      throw new ConfigError(`${source}: option "scim.userFields.${field}": not a field of user.additionalFields`);
    }
  }
  const resolved: AuthOptions = {
    ...options,
    emailVerification: {
      ...options.emailVerification,
      sendOnSignUp:
        options.emailVerification.sendOnSignUp ??
        (options.emailAndPassword.requireEmailVerification || options.twoFactor.enabled || options.passkey.enabled),
    },
    advanced: {
      ...options.advanced,
      useSecureCookies: options.advanced.useSecureCookies ?? context.baseURL.startsWith("https://"),
    },
  };
  return deepFreeze(resolved);
}

/** Options that are functions, given to createAuth beside `options`: JSON cannot carry them. */
const CODE_ONLY_KEYS = ["hooks", "databaseHooks"];

function refuseCodeOnlyKeys(input: unknown, source: string): void {
  if (typeof input !== "object" || input === null) return;
  for (const key of CODE_ONLY_KEYS) {
    if (key in input) {
      throw new ConfigError(
        `${source}: option "${key}" takes functions, so it is given in code, beside options (createAuth({ ${key} })), never in the JSON options`,
      );
    }
  }
}

/** In production a payload must not cross a network in the clear: https, or a loopback receiver. */
function refusePlainHttpWebhooks(list: readonly { url: string }[], source: string): void {
  list.forEach(({ url }, index) => {
    const { protocol, hostname } = new URL(url);
    const loopback = hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
    if (protocol !== "https:" && !loopback) {
      throw new ConfigError(
        `${source}: option "webhooks.${index}.url": must be https when NODE_ENV=production (got "${url}"); only loopback receivers may use http`,
      );
    }
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The Google client id the application's One Tap prompt uses: oneTap.clientId, else Google sign-in's; null when off. */
export function oneTapClientId(options: Pick<AuthOptions, "oneTap" | "socialProviders">): string | null {
  if (!options.oneTap.enabled) return null;
  return options.oneTap.clientId ?? options.socialProviders.google?.clientId ?? null;
}
