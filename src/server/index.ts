/**
 * The package's server entry, `import { createAuth } from "gatehouse-auth"`: everything an embedding
 * server needs, fetch-style only (node:http lives in `gatehouse-auth/node`).
 */

export type { SessionWithUser } from "../contract/models.js";
export { toNextJsHandler } from "./adapters/next.js";
export type { ApiFunction, ApiInput, ApiReply, CallOptions, ServerApi, ServerOnlyApi } from "./api.js";
export { type Auth, type CreateAuthInput, createAuth, MIN_SECRET_LENGTH } from "./auth.js";
export type { OnLinkAccount } from "./context.js";
export { type Argon2Params, argon2idHasher, type PasswordHasher } from "./crypto/password.js";
export type { MailOptions, NodemailerTransporter, OutgoingMail } from "./email/delivery.js";
export { type MailTransport, smtpTransport } from "./email/transport.js";
export { AuthError, isAuthError } from "./errors.js";
export type {
  AccountData,
  AfterEndpointHookContext,
  BeforeWrite,
  DatabaseHooks,
  EndpointHookContext,
  EndpointHooks,
  EndpointInputChange,
  MemberData,
  ModelHooks,
  OrganizationData,
  OrganizationPatch,
  SessionData,
  UserData,
  UserPatch,
} from "./hooks.js";
export type { HeaderSessionOptions, RequestHeaders } from "./http/header-session.js";
export { consoleLogger, type Logger } from "./logger.js";
export { type AuthOptions, type AuthOptionsInput, ConfigError } from "./options.js";
export type { PageParams, PageURLBuilder } from "./pages.js";
export type { RevocationFeed } from "./services/revocations.js";
export type { OpenedDatabase } from "./store/database.js";
export { openDatabase } from "./store/database.js";
export { MemoryRateLimitStore, type RateLimitDecision, type RateLimitStore } from "./store/rate-limit-store.js";
export { RedisRateLimitStore } from "./store/redis-rate-limit-store.js";
export { redisRevocationFeed } from "./store/revocation-feeds.js";
