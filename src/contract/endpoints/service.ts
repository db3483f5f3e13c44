import { z } from "zod";
import { endpoint } from "./define.js";

/** Probes, the error page, the application's switches, JWTs and the development outbox. */
export const serviceEndpoints = {
  ok: endpoint({
    method: "GET",
    path: "/ok",
    summary: "Liveness: the process answers",
    reply: z.object({ ok: z.boolean() }),
    policy: {},
  }),
  ready: endpoint({
    method: "GET",
    path: "/ready",
    summary: "Readiness: 503 while the database does not answer",
    reply: z.object({ ready: z.boolean(), database: z.boolean(), revocations: z.boolean() }),
    policy: { rateLimit: "none" },
  }),
  errorPage: endpoint({
    method: "GET",
    path: "/error",
    summary: "The sign-in error page (a redirect to the app in production)",
    query: z.object({ error: z.string().optional(), error_description: z.string().optional() }),
    reply: null,
    answers: "html",
    policy: {},
  }),
  appConfig: endpoint({
    method: "GET",
    path: "/app-config",
    summary: "Which sign-in methods and account features are switched on",
    reply: z.object({
      emailAndPassword: z.object({
        enabled: z.boolean(),
        disableSignUp: z.boolean(),
        minPasswordLength: z.number().int(),
        maxPasswordLength: z.number().int(),
        requireEmailVerification: z.boolean(),
      }),
      socialProviders: z.array(z.string()),
      anonymous: z.boolean(),
      oneTapClientId: z.string().nullable(),
      changeEmail: z.boolean(),
      deleteUser: z.object({ enabled: z.boolean(), sendDeleteAccountVerification: z.boolean() }),
      organization: z.object({
        enabled: z.boolean(),
        teams: z.boolean(),
        /** The role table (contract/roles.ts): the creator role and what each role may do. */
        roles: z.object({
          creatorRole: z.string(),
          roles: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
        }),
      }),
      twoFactor: z.object({ enabled: z.boolean(), otp: z.boolean() }),
      magicLink: z.boolean(),
      emailOTP: z.boolean(),
      /** Digits in a mailed code (emailOTP.otpLength): the code screens draw one box per digit. */
      emailOTPLength: z.number().int(),
      passkey: z.boolean(),
      /** SCIM provisioning is served: owners get the Directory screen. */
      scim: z.boolean(),
      securityActivity: z.boolean(),
      /** Whether the audit trail is kept, and the role that may read an organization's (its owners'). */
      audit: z.object({ enabled: z.boolean(), ownerRole: z.string() }),
      devOutbox: z.boolean(),
      /** Enterprise single sign-on (sign in by work email; organizations' Connections screen). */
      sso: z.boolean(),
      organizationWebhooks: z.boolean(),
      /** API keys are served: the organization's API keys screen (keys and machine clients). */
      apiKeys: z.boolean(),
      /** The OAuth provider: connected applications on the account, organizations' OAuth clients. */
      oauthProvider: z.boolean(),
    }),
    policy: {},
  }),
  jwks: endpoint({
    method: "GET",
    path: "/jwks",
    summary: "The public keys that verify session JWTs",
    reply: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
    policy: { feature: "jwt" },
  }),
  token: endpoint({
    method: "GET",
    path: "/token",
    summary: "A signed JWT for the caller's session",
    reply: z.object({ token: z.string() }),
    policy: { session: "required", feature: "jwt" },
  }),
  openApi: endpoint({
    method: "GET",
    path: "/openapi.json",
    summary: "This document: the OpenAPI 3.1 description of the endpoints this server routes",
    reply: z.record(z.string(), z.unknown()),
    policy: {},
  }),
  reference: endpoint({
    method: "GET",
    path: "/reference",
    summary: "A page for people that reads this document (served from this server, no CDN)",
    reply: null,
    answers: "html",
    policy: {},
  }),
  referenceAsset: endpoint({
    method: "GET",
    path: "/reference/:asset",
    summary: "The reference page's script and stylesheet",
    reply: null,
    answers: "file",
    policy: {},
  }),
  developmentOutbox: endpoint({
    method: "GET",
    path: "/dev/outbox",
    summary: "Development only, loopback only: the mail the service would have sent",
    reply: z.array(
      z.object({
        id: z.string(),
        to: z.string(),
        subject: z.string(),
        text: z.string(),
        html: z.string(),
        kind: z.string(),
        createdAt: z.date(),
        sentAt: z.date().nullable(),
      }),
    ),
    policy: { feature: "developmentOutbox" },
  }),
} as const;
