import { z } from "zod";
import { timestamp } from "./models.js";
import { scimConnectionModel } from "./scim.js";

/**
 * Setup links (docs/sso.md, "Let the customer set it up"): what an organization's owner lets a
 * customer's IT admin configure, without an account, until the link expires or is revoked.
 * `domains`: prove a connection's domains; `sso`: register and check connections; `directory`: SCIM;
 * `auditStream`: a webhook that streams the organization's audit trail (docs/webhooks.md).
 */
export const SETUP_SCOPES = ["domains", "sso", "directory", "auditStream"] as const;
export type SetupScope = (typeof SETUP_SCOPES)[number];

/** The identity providers the setup steps give directions for (catalogue keys `setup.guide.<name>`). */
export const SETUP_GUIDES = ["okta", "entra", "google", "onelogin", "jumpcloud", "adfs", "saml", "oidc"] as const;
export type SetupGuide = (typeof SETUP_GUIDES)[number];

/** A day, as the issue asks; a week at most: the link is a bearer secret sent by mail or chat. */
export const DEFAULT_SETUP_LINK_SECONDS = 24 * 60 * 60;
export const MAX_SETUP_LINK_SECONDS = 7 * 24 * 60 * 60;

const scopes = z
  .array(z.enum(SETUP_SCOPES))
  .min(1)
  .max(SETUP_SCOPES.length)
  .refine((list) => new Set(list).size === list.length, "lists a scope twice");
const linkId = z.string().min(1).max(255);

export const createSetupLinkBody = z.object({
  /** Default: the active organization. */
  organizationId: z.string().min(1).max(255).optional(),
  scopes,
  /** Seconds until it stops working (default a day, at most a week). */
  expiresIn: z.number().int().min(60).max(MAX_SETUP_LINK_SECONDS).optional(),
  /** Whom it is for, as its owners will recognise it in the list and the audit trail. */
  label: z.string().trim().min(1).max(200).optional(),
});
export type CreateSetupLinkBody = z.output<typeof createSetupLinkBody>;

export const setupLinkModel = z.object({
  id: z.string(),
  organizationId: z.string(),
  scopes: z.array(z.enum(SETUP_SCOPES)),
  label: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  expiresAt: timestamp,
  revokedAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
  /** `active` until it expires or is revoked. */
  status: z.enum(["active", "expired", "revoked"]),
});
export type SetupLinkView = z.output<typeof setupLinkModel>;

/** The link and its secret: shown in this reply only, kept as a digest. */
export const createSetupLinkReply = z.object({ link: setupLinkModel, token: z.string() });

export const listSetupLinksQuery = z.object({ organizationId: z.string().min(1).max(255).optional() });
export const setupLinksReply = z.object({ links: z.array(setupLinkModel) });
export const setupLinkIdBody = z.object({ linkId });

/** The link's secret, exchanged once per browser for the link's cookie. */
export const openSetupLinkBody = z.object({ token: z.string().min(1).max(512) });

/** What the person holding the link sees: the organization it is for and what it may configure. */
export const setupLinkGrantReply = z.object({
  organization: z.object({ id: z.string(), name: z.string(), slug: z.string().nullable() }),
  scopes: z.array(z.enum(SETUP_SCOPES)),
  label: z.string().nullable(),
  expiresAt: timestamp,
});
export type SetupLinkGrant = z.output<typeof setupLinkGrantReply>;

/** The audit stream's receiver: its webhook subscribes to `audit.entry` only. */
export const setupAuditStreamBody = z.object({ url: z.string().min(1).max(2048) });

/** The organization's directory connections as the link shows them, with the base URL a directory calls. */
export const setupScimReply = z.object({
  baseURL: z.string(),
  providers: z.array(scimConnectionModel),
});
