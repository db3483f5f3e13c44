import type { SessionWithUser } from "../../contract/models.js";
import type { OrganizationWebhook, OrganizationWebhookEvent } from "../../contract/organization-webhooks.js";
import { auditChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { encryptString } from "../crypto/encryption.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { type DB, isUniqueViolation } from "../store/database.js";
import { findMember } from "../store/members.js";
import {
  deleteOrganizationWebhook,
  findOrganizationWebhook,
  insertOrganizationWebhook,
  listOrganizationWebhooks,
  type OrganizationWebhookRow,
  updateOrganizationWebhook,
} from "../store/organization-webhooks.js";
import { lockOrganization } from "../store/organizations.js";
import { isAcceptableReceiverUrl, newWebhookSecret, webhookSecretKey } from "../webhooks/receiver-url.js";
import { isOwnerRole } from "./access-control.js";
import { type Caller, isSetupLinkCaller, type SetupLinkCaller, setupLinkOrganization } from "./caller.js";
import { requireMember, resolveOrganizationId } from "./organization-access.js";

/**
 * Webhooks an organization's owners manage (docs/webhooks.md): the organization's events, signed with
 * a secret of the webhook's own, shown once (at creation and rotation) and kept encrypted, since the
 * outbox needs it to sign. Owners only, reads included: a webhook's URL says where the owners' audit
 * trail goes, which is theirs alone to read (docs/audit.md).
 */

const keys = new WeakMap<object, Buffer>();
const keyOf = (ctx: AuthContext): Buffer => {
  let key = keys.get(ctx.instance);
  if (!key) {
    key = webhookSecretKey(ctx.secret);
    keys.set(ctx.instance, key);
  }
  return key;
};

export function webhookView(row: OrganizationWebhookRow): OrganizationWebhook {
  const { secret: _secret, ...view } = row;
  return { ...view, events: row.events as OrganizationWebhookEvent[] };
}

async function requireOwner(ctx: AuthContext, db: DB, organizationId: string, userId: string): Promise<void> {
  const member = await requireMember(db, organizationId, userId, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  if (!isOwnerRole(ctx, member.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS");
}

/** The webhook named, if the caller owns its organization; a stranger cannot tell it exists. */
async function ownedWebhook(ctx: AuthContext, db: DB, userId: string, id: string): Promise<OrganizationWebhookRow> {
  const row = await findOrganizationWebhook(db, id);
  const member = row ? await findMember(db, row.organizationId, userId) : null;
  if (!row || !member) throw new AuthError("WEBHOOK_NOT_FOUND");
  if (!isOwnerRole(ctx, member.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS");
  return row;
}

async function checkUrl(ctx: AuthContext, url: string): Promise<void> {
  if (!(await isAcceptableReceiverUrl(url, ctx.options.organizationWebhooks.allowPrivateUrls))) {
    throw new AuthError("INVALID_WEBHOOK_URL");
  }
}

/** Runs a change under the organization's lock (owners, count and URLs checked in it), mapping a URL clash. */
async function change<T>(ctx: AuthContext, organizationId: string, run: (trx: DB) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await lockOrganization(trx, ctx.dialect, organizationId);
      return run(trx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("WEBHOOK_URL_ALREADY_EXISTS");
    throw error;
  }
}

/** What a setup link's webhooks record as their maker: a link sees and tests only its own. */
const linkMaker = (link: SetupLinkCaller) => `setup-link:${link.id}`;

/**
 * Adds a webhook: an owner's, or a setup link's audit stream for its own organization (the route
 * fixes its events), recorded as made by the link.
 */
export async function createWebhook(
  ctx: AuthContext,
  caller: Caller,
  input: { organizationId?: string; url: string; events: OrganizationWebhookEvent[]; enabled?: boolean },
): Promise<OrganizationWebhook & { secret: string }> {
  const link = isSetupLinkCaller(caller) ? caller : null;
  const owner = link ? null : (caller as SessionWithUser);
  const organizationId = link
    ? setupLinkOrganization(link, input.organizationId)
    : resolveOrganizationId((owner as SessionWithUser).session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  // Owners first, so nobody else can make the service resolve names.
  if (owner) await requireOwner(ctx, ctx.db, organizationId, owner.user.id);
  await checkUrl(ctx, input.url);
  const secret = newWebhookSecret();
  const now = ctx.now();
  const row: OrganizationWebhookRow = {
    id: newId(),
    organizationId,
    url: input.url,
    events: [...input.events],
    secret: encryptString(keyOf(ctx), secret),
    enabled: input.enabled ?? true,
    createdBy: link ? linkMaker(link) : (owner as SessionWithUser).user.id,
    createdAt: now,
    updatedAt: now,
    lastDeliveryAt: null,
    lastDeliveryError: null,
  };
  await change(ctx, organizationId, async (trx) => {
    if (owner) await requireOwner(ctx, trx, organizationId, owner.user.id);
    const existing = await listOrganizationWebhooks(trx, organizationId);
    if (existing.length >= ctx.options.organizationWebhooks.maxPerOrganization) {
      throw new AuthError("TOO_MANY_WEBHOOKS");
    }
    if (existing.some((hook) => hook.url === row.url)) throw new AuthError("WEBHOOK_URL_ALREADY_EXISTS");
    await insertOrganizationWebhook(trx, row);
    await auditChange(ctx, trx, { organizationId, details: { webhookId: row.id, url: row.url, events: row.events } });
  });
  return { ...webhookView(row), secret };
}

export async function listWebhooks(
  ctx: AuthContext,
  caller: SessionWithUser,
  query: { organizationId?: string },
): Promise<OrganizationWebhook[]> {
  const organizationId = resolveOrganizationId(caller.session, query.organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireOwner(ctx, ctx.db, organizationId, caller.user.id);
  return (await listOrganizationWebhooks(ctx.db, organizationId)).map(webhookView);
}

export async function updateWebhook(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { webhookId: string; url?: string; events?: OrganizationWebhookEvent[]; enabled?: boolean },
): Promise<OrganizationWebhook> {
  const { webhookId, ...patch } = input;
  const found = await ownedWebhook(ctx, ctx.db, caller.user.id, webhookId);
  if (patch.url !== undefined && patch.url !== found.url) await checkUrl(ctx, patch.url);
  return change(ctx, found.organizationId, async (trx) => {
    await ownedWebhook(ctx, trx, caller.user.id, webhookId);
    await updateOrganizationWebhook(trx, webhookId, { ...patch, updatedAt: ctx.now() });
    await auditChange(ctx, trx, {
      organizationId: found.organizationId,
      details: { webhookId, changed: Object.keys(patch).sort(), ...(patch.url ? { url: patch.url } : {}) },
    });
    return webhookView((await findOrganizationWebhook(trx, webhookId)) as OrganizationWebhookRow);
  });
}

export async function rotateWebhookSecret(
  ctx: AuthContext,
  caller: SessionWithUser,
  webhookId: string,
): Promise<OrganizationWebhook & { secret: string }> {
  const found = await ownedWebhook(ctx, ctx.db, caller.user.id, webhookId);
  const secret = newWebhookSecret();
  const row = await change(ctx, found.organizationId, async (trx) => {
    await ownedWebhook(ctx, trx, caller.user.id, webhookId);
    await updateOrganizationWebhook(trx, webhookId, {
      secret: encryptString(keyOf(ctx), secret),
      updatedAt: ctx.now(),
    });
    await auditChange(ctx, trx, { organizationId: found.organizationId, details: { webhookId } });
    return (await findOrganizationWebhook(trx, webhookId)) as OrganizationWebhookRow;
  });
  return { ...webhookView(row), secret };
}

/**
 * Sends the webhook one signed `webhook.test` delivery through the outbox, so its owner can check
 * the receiver. Not a change (nothing of the webhook changes), so not audited; the route is rate-limited.
 */
export async function testWebhook(
  ctx: AuthContext,
  caller: SessionWithUser,
  webhookId: string,
): Promise<{ deliveryId: string }> {
  const found = await ownedWebhook(ctx, ctx.db, caller.user.id, webhookId);
  // A disabled webhook's deliveries are given up unsent: a test would tell its owner nothing.
  if (!found.enabled) throw new AuthError("WEBHOOK_DISABLED");
  return { deliveryId: await ctx.webhooks.enqueueTest(ctx.db, found) };
}

/** The webhooks a setup link made (its audit streams); another's, even its organization's, are not its to see. */
export async function listLinkWebhooks(ctx: AuthContext, link: SetupLinkCaller): Promise<OrganizationWebhook[]> {
  const rows = await listOrganizationWebhooks(ctx.db, link.organizationId);
  return rows.filter((row) => row.createdBy === linkMaker(link)).map(webhookView);
}

/** testWebhook for a setup link: only a webhook it made. */
export async function testLinkWebhook(
  ctx: AuthContext,
  link: SetupLinkCaller,
  webhookId: string,
): Promise<{ deliveryId: string }> {
  const found = await findOrganizationWebhook(ctx.db, webhookId);
  if (!found || found.createdBy !== linkMaker(link)) throw new AuthError("WEBHOOK_NOT_FOUND");
  if (!found.enabled) throw new AuthError("WEBHOOK_DISABLED");
  return { deliveryId: await ctx.webhooks.enqueueTest(ctx.db, found) };
}

/** Nothing more is sent to it: its deliveries still pending are given up at their next attempt. */
export async function deleteWebhook(ctx: AuthContext, caller: SessionWithUser, webhookId: string): Promise<void> {
  const found = await ownedWebhook(ctx, ctx.db, caller.user.id, webhookId);
  await change(ctx, found.organizationId, async (trx) => {
    await ownedWebhook(ctx, trx, caller.user.id, webhookId);
    await deleteOrganizationWebhook(trx, webhookId);
    await auditChange(ctx, trx, { organizationId: found.organizationId, details: { webhookId, url: found.url } });
  });
}
