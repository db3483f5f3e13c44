import type { ColumnType, Generated } from "kysely";
import type { StoredAuditFields } from "../audit/hash.js";

/**
 * Row types as the database holds them. Dates travel in as Date and come back as Date
 * (PostgreSQL timestamptz) or ISO text (SQLite); booleans come back as boolean or 0/1.
 * Store modules map rows to domain types with `toDate` / `toBool` so callers never see the difference.
 */
type Timestamp = ColumnType<Date | string, Date, Date>;
type NullableTimestamp = ColumnType<Date | string | null, Date | null | undefined, Date | null>;
type Bool = ColumnType<boolean | number, boolean | undefined, boolean>;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Bool;
  image: string | null;
  isAnonymous: Bool;
  role: string | null;
  banned: Bool;
  banReason: string | null;
  banExpires: NullableTimestamp;
  twoFactorEnabled: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A user's TOTP secret (encrypted with the token cipher), hashed backup codes and last accepted step. */
export interface TwoFactorTable {
  userId: string;
  secret: string;
  /** JSON array of the SHA-256 of each unused backup code. */
  backupCodes: string;
  verified: Bool;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  lastUsedStep: ColumnType<number | string | bigint | null, number | null | undefined, number | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A sign-in waiting for its second factor; the browser holds the token in a signed cookie. */
export interface TwoFactorChallengeTable {
  tokenHash: string;
  userId: string;
  rememberMe: Bool;
  failures: Generated<number>;
  /** A code mailed for this challenge (two-factor OTP), hashed. */
  otpHash: string | null;
  otpExpiresAt: NullableTimestamp;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  /** How the sign-in that owes the factor began (migration 0024). */
  signInMethod: string | null;
  /** The SSO connection it began at, for an SSO sign-in (migration 0033). */
  signInProviderId: string | null;
}

/** A WebAuthn credential (passkey) of a user. */
export interface PasskeyTable {
  id: string;
  name: string | null;
  userId: string;
  /** The credential id, base64url, as the authenticator reports it. */
  credentialID: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: ColumnType<number | string | bigint, number, number>;
  deviceType: string;
  backedUp: Bool;
  transports: string | null;
  aaguid: string | null;
  createdAt: Timestamp;
}

export interface SessionTable {
  id: string;
  /** SHA-256 of the session token: a leaked table yields no usable session. */
  tokenHash: string;
  userId: string;
  expiresAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** How the session was signed in (migration 0024); null for sessions older than that. */
  signInMethod: string | null;
  /** The SSO connection (providerId) that signed it in, for an SSO session (migration 0033). */
  signInProviderId: string | null;
  /** When it last acted in an organization with an idle timeout (coarse: see organization-policies.ts). */
  lastActiveAt: NullableTimestamp;
}

/** A session's latest proof of identity (migration 0016); it goes with its session. */
export interface SessionProofTable {
  sessionId: string;
  /** How: `password`, `passkey`, `totp`, `backup-code` or `provider`. */
  method: string;
  provedAt: Timestamp;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: NullableTimestamp;
  refreshTokenExpiresAt: NullableTimestamp;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationTable {
  id: string;
  /** Purpose prefix plus the SHA-256 of the one-time token, e.g. `reset-password:<digest>`. */
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  /** JSON text. */
  metadata: string | null;
  createdAt: Timestamp;
}

export interface MemberTable {
  id: string;
  organizationId: string;
  userId: string;
  /** One role or several, comma separated. */
  role: string;
  teamId: string | null;
  createdAt: Timestamp;
  /** The user whose invitation this member accepted (migration 0013); null otherwise. */
  invitedBy: string | null;
}

/** Moves on with anything a page of the organization's members shows (migration 0014, kept by triggers). */
export interface MemberListVersionTable {
  organizationId: string;
  /** bigint: a string from node-postgres, a number from SQLite. */
  version: number | string;
}

export interface InvitationTable {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  status: string;
  teamId: string | null;
  inviterId: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  /** Mails sent for it (migration 0018): the first, then each resend. */
  sendCount: Generated<number>;
  /** When its mail last went out; null on invitations older than migration 0018. */
  lastSentAt: NullableTimestamp;
}

export interface TeamTable {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Timestamp;
  updatedAt: NullableTimestamp;
}

export interface TeamMemberTable {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Timestamp;
  /** The member's role within the team (team roles); null: the team's default role. */
  role: Generated<string | null>;
}

export interface JwksTable {
  id: string;
  publicKey: string;
  privateKey: string;
  alg: string | null;
  crv: string | null;
  createdAt: Timestamp;
  expiresAt: NullableTimestamp;
  /** 1 for the first key, +1 per rotation; unique, so only one instance creates each. Null on keys made before 0006. */
  generation: number | null;
}

/** Attempts claimed per limited key (migration 0017; store/attempt-counters.ts). */
export interface AttemptCounterTable {
  key: string;
  attempts: number;
  /** A backoff's wait: no attempt before this. */
  blockedUntil: NullableTimestamp;
  /** When the count is forgotten. */
  expiresAt: Timestamp;
}

/** Mail waiting to be delivered, written in the same transaction as the change that causes it. */
export interface OutboxTable {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What kind of mail (verification, reset, ...), for the development outbox page and tests. */
  kind: string;
  attempts: Generated<number>;
  lastError: string | null;
  nextAttemptAt: Timestamp;
  sentAt: NullableTimestamp;
  createdAt: Timestamp;
}

/** Webhook deliveries (migration 0012), written in the same transaction as the change they tell of. */
export interface WebhookDeliveryTable {
  /** Sent as `webhook-id`; the same on every attempt. */
  id: string;
  url: string;
  eventType: string;
  /** The JSON body, fixed at enqueue so every attempt signs and sends the same bytes. */
  payload: string;
  attempts: Generated<number>;
  lastError: string | null;
  nextAttemptAt: Timestamp;
  deliveredAt: NullableTimestamp;
  /** When the delivery was given up (after the last allowed attempt). */
  failedAt: NullableTimestamp;
  createdAt: Timestamp;
  /** The organization's own subscription it is for (migration 0031); null for a configured webhook. */
  endpointId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A webhook an organization's owners manage (migration 0031); its secret encrypted (crypto/encryption.ts). */
export interface OrganizationWebhookTable {
  id: string;
  organizationId: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  secret: string;
  enabled: Bool;
  createdBy: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  lastDeliveryAt: NullableTimestamp;
  /** The last attempt's error; null when it was delivered (or nothing was attempted yet). */
  lastDeliveryError: string | null;
}

/** API keys (migration 0035): exactly one of organizationId and userId is set (the owner). */
export interface ApiKeyTable {
  id: string;
  /** SHA-256 of the key, base64url: the key itself is shown once and never kept. */
  keyHash: string;
  /** After a rotation, the replaced key's digest: still accepted until previousKeyExpiresAt. */
  previousKeyHash: string | null;
  previousKeyExpiresAt: NullableTimestamp;
  name: string | null;
  /** The key's first characters, to tell keys apart on a screen. */
  start: string | null;
  prefix: string | null;
  organizationId: string | null;
  userId: string | null;
  createdBy: string | null;
  enabled: Bool;
  rateLimitEnabled: Bool;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  /** JSON object resource -> actions. */
  permissions: string | null;
  /** JSON object. */
  metadata: string | null;
  expiresAt: NullableTimestamp;
  /** Batched: written at most once a minute per key. */
  lastRequest: NullableTimestamp;
  /** JSON array of the latest addresses the key was used from. */
  knownAddresses: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Admin actions and impersonations (migration 0005). Never updated, only appended. */
export interface AuditLogTable {
  id: string;
  actorUserId: string;
  action: string;
  targetUserId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  /** JSON text. */
  details: string | null;
  createdAt: Timestamp;
}

/** An organization's OpenID Connect (0019) or SAML (0023) connection; the client secret is sealed with its own key. */
export interface SsoProviderTable {
  id: string;
  providerId: string;
  organizationId: string;
  userId: string | null;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space separated. */
  scopes: string;
  /** JSON: which claim holds the subject, email, name, ... */
  mapping: string;
  defaultRole: string;
  /** JSON `{claim, values}` or null. */
  roleMapping: string | null;
  /** `oidc` or `saml` (0023). */
  type: string;
  /** SAML connections only: JSON of sso/saml.service.ts's SamlSettings (0023). */
  samlConfig: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** JSON of a staged change of who asserts identity, until an owner confirms it (0033). */
  pendingChange: string | null;
  pendingChangeBy: string | null;
  pendingChangeAt: NullableTimestamp;
}

/** An email domain a connection claims; it routes sign-ins once verified by DNS. */
export interface SsoDomainTable {
  id: string;
  providerId: string;
  domain: string;
  verified: Bool;
  verificationToken: string | null;
  tokenExpiresAt: NullableTimestamp;
  verifiedAt: NullableTimestamp;
  createdAt: Timestamp;
  /** The connection's issuer (SAML: entity id) when the domain was proven (0033). */
  provenIssuer: string | null;
}

/** An organization's SCIM connection (migration 0020): its bearer token as a SHA-256 digest. */
export interface ScimProviderTable {
  id: string;
  providerId: string;
  organizationId: string;
  tokenHash: string;
  linkExistingMembers: Bool;
  createdBy: string | null;
  createdAt: Timestamp;
  /** The token's last directory call (migration 0028), written at most once a minute. */
  lastUsedAt: NullableTimestamp;
}

/** A user a SCIM connection provisioned in its organization: what its token may see and change. */
export interface ScimUserTable {
  id: string;
  organizationId: string;
  providerId: string;
  userId: string;
  /** As the directory sent it; matched without regard to case (RFC 7643: caseExact false). */
  userName: string;
  externalId: string | null;
  /** The directory created the account (rather than linking an existing member): it owns the email. */
  createdUser: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A group a SCIM connection pushed; it grants `role` or a place in `teamId` once the owner maps it. */
export interface ScimGroupTable {
  id: string;
  organizationId: string;
  providerId: string;
  displayName: string;
  externalId: string | null;
  role: string | null;
  teamId: string | null;
  teamRole: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A directory call a SCIM connection made that was refused (migration 0040): the newest few per connection. */
export interface ScimErrorTable {
  id: string;
  organizationId: string;
  providerId: string;
  method: string;
  path: string;
  status: number;
  scimType: string | null;
  detail: string;
  createdAt: Timestamp;
}

export interface ScimGroupMemberTable {
  groupId: string;
  userId: string;
  createdAt: Timestamp;
}

/** One security event (audit/trail.store.ts); `hash` chains it to the entry before. */
/** The entry's own columns come from its one declaration (contract/audit.ts, AUDIT_ENTRY_FIELDS). */
export type AuditTrailTable = {
  /** Null until sealed (migration 0034): the sealer numbers and chains committed entries. */
  seq: ColumnType<number | string | null, number | null | undefined, number | null>;
  hash: ColumnType<string | null, string | null | undefined, string | null>;
} & {
  [K in keyof StoredAuditFields]: StoredAuditFields[K] extends Date
    ? Timestamp
    : StoredAuditFields[K] extends Date | null
      ? NullableTimestamp
      : StoredAuditFields[K];
};

/** An organization's policy (migration 0024): its rules as JSON text (services/organization-policy.ts). */
export interface OrganizationPolicyTable {
  organizationId: string;
  rules: string;
  updatedBy: string | null;
  updatedAt: Timestamp;
}

/** A browser a user has signed in from (store/known-devices.ts): the hash of its device cookie. */
export interface KnownDeviceTable {
  id: string;
  userId: string;
  deviceHash: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Timestamp;
  lastSeenAt: Timestamp;
}

/** An address an API key was used from (migration 0038): its first use from there was audited. */
export interface ApiKeyAddressTable {
  apiKeyId: string;
  address: string;
  firstSeenAt: Timestamp;
}

/** A setup link (migration 0037; store/setup-links.ts): the digest of its secret, never the secret. */
export interface SetupLinkTable {
  id: string;
  organizationId: string;
  secretHash: string;
  /** JSON array of scopes. */
  scopes: string;
  label: string | null;
  createdBy: string | null;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  revokedAt: NullableTimestamp;
  revokedBy: string | null;
  lastUsedAt: NullableTimestamp;
}

/** The chain's single row (id 1): its head, and the anchor retention pruned up to. */
export interface AuditChainTable {
  id: number;
  headSeq: ColumnType<number | string, number, number>;
  headHash: string;
  anchorSeq: ColumnType<number | string, number, number>;
  anchorHash: string;
  /** SQLite: the instance whose sealer holds the lease, and until when (ms since the epoch). */
  sealerId: string | null;
  sealerUntil: ColumnType<number | string | null, number | null, number | null>;
}

/** An OAuth client (migration 0036): its secret as a SHA-256 digest; list fields as JSON text. */
export interface OAuthClientTable {
  id: string;
  clientId: string;
  clientSecretHash: string | null;
  name: string;
  tokenEndpointAuthMethod: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  grantTypes: string;
  scopes: string;
  clientUri: string | null;
  logoUri: string | null;
  skipConsent: Bool;
  disabled: Bool;
  organizationId: string | null;
  userId: string | null;
  createdBy: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** The client's last token (migration 0038), written at most once a minute. */
  lastUsedAt: NullableTimestamp;
  /** Set for a client known by its Client ID Metadata Document: the cached copy is fresh until then. */
  metadataDocumentExpiresAt: NullableTimestamp;
  backchannelLogoutUri: string | null;
  /** OpenID Connect Front-Channel Logout 1.0 (migration 0047): framed with `iss` and `sid` at RP-initiated logout. */
  frontchannelLogoutUri: string | null;
  /** "jwt" or "opaque". */
  accessTokenFormat: Generated<string>;
  /** RFC 7592 (migration 0043): a dynamically registered client's registration access token, as a digest. */
  registrationAccessTokenHash: string | null;
}

/** An opaque access token as its SHA-256 digest, within its grant. */
export interface OAuthAccessTokenTable {
  tokenHash: string;
  grantId: string;
  /** Space-separated. */
  scopes: string;
  /** JSON array. */
  audience: string;
  createdAt: Timestamp;
  expiresAt: Timestamp;
}

/** What one authorization gave a client: every token it issued ends when it is revoked. */
export interface OAuthGrantTable {
  id: string;
  clientId: string;
  userId: string | null;
  /** Space-separated. */
  scopes: string;
  resource: string | null;
  authTime: NullableTimestamp;
  nonce: string | null;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  revokedAt: NullableTimestamp;
  /** The session that authorized it (the ID token's `sid`); null for client credentials and devices. */
  sessionId: string | null;
}

/** An authorization code as its SHA-256 digest: used once, within a minute. */
export interface OAuthCodeTable {
  codeHash: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string;
  resource: string | null;
  codeChallenge: string | null;
  nonce: string | null;
  authTime: Timestamp;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
  grantId: string | null;
  sessionId: string | null;
}

/** A back-channel logout token waiting to be POSTed to a client (signed when sent), retried with backoff. */
export interface OAuthLogoutDeliveryTable {
  id: string;
  clientId: string;
  userId: string;
  sessionId: string;
  attempts: number;
  nextAttemptAt: Timestamp;
  deliveredAt: NullableTimestamp;
  failedAt: NullableTimestamp;
  lastError: string | null;
  createdAt: Timestamp;
}

export interface OAuthRefreshTokenTable {
  tokenHash: string;
  grantId: string;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
}

/** A device authorization (RFC 8628): both codes as digests; approved or denied on the app's page. */
export interface OAuthDeviceCodeTable {
  id: string;
  deviceCodeHash: string;
  userCodeHash: string;
  clientId: string;
  scopes: string;
  resource: string | null;
  status: string;
  userId: string | null;
  authTime: NullableTimestamp;
  intervalSeconds: number;
  lastPolledAt: NullableTimestamp;
  usedAt: NullableTimestamp;
  createdAt: Timestamp;
  expiresAt: Timestamp;
}

/** The scopes a user consented to for a client (space-separated). */
export interface OAuthConsentTable {
  id: string;
  userId: string;
  clientId: string;
  scopes: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface Database {
  user: UserTable;
  twoFactor: TwoFactorTable;
  twoFactorChallenge: TwoFactorChallengeTable;
  passkey: PasskeyTable;
  session: SessionTable;
  sessionProof: SessionProofTable;
  account: AccountTable;
  verification: VerificationTable;
  organization: OrganizationTable;
  organizationPolicy: OrganizationPolicyTable;
  member: MemberTable;
  memberListVersion: MemberListVersionTable;
  invitation: InvitationTable;
  team: TeamTable;
  teamMember: TeamMemberTable;
  jwks: JwksTable;
  attemptCounter: AttemptCounterTable;
  outbox: OutboxTable;
  webhookDelivery: WebhookDeliveryTable;
  organizationWebhook: OrganizationWebhookTable;
  apiKey: ApiKeyTable;
  apiKeyAddress: ApiKeyAddressTable;
  auditLog: AuditLogTable;
  ssoProvider: SsoProviderTable;
  ssoDomain: SsoDomainTable;
  scimProvider: ScimProviderTable;
  scimError: ScimErrorTable;
  scimUser: ScimUserTable;
  scimGroup: ScimGroupTable;
  scimGroupMember: ScimGroupMemberTable;
  auditTrail: AuditTrailTable;
  auditChain: AuditChainTable;
  knownDevice: KnownDeviceTable;
  oauthClient: OAuthClientTable;
  oauthGrant: OAuthGrantTable;
  oauthCode: OAuthCodeTable;
  oauthRefreshToken: OAuthRefreshTokenTable;
  oauthConsent: OAuthConsentTable;
  oauthDeviceCode: OAuthDeviceCodeTable;
  oauthLogoutDelivery: OAuthLogoutDeliveryTable;
  oauthAccessToken: OAuthAccessTokenTable;
  setupLink: SetupLinkTable;
}
