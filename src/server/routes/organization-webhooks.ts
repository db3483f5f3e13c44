import { organizationEndpoints } from "../../contract/endpoints/index.js";
import type { Route } from "../http/route.js";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from "../services/organization-webhooks.js";

/** An organization's own webhooks (organizationWebhooks.enabled; docs/webhooks.md). */
export function organizationWebhookRoutes(route: Route): void {
  route(organizationEndpoints.createWebhook, (c, { body, caller }) => createWebhook(c.get("auth"), caller, body));

  route(organizationEndpoints.listWebhooks, async (c, { query, caller }) => ({
    webhooks: await listWebhooks(c.get("auth"), caller, query),
  }));

  route(organizationEndpoints.updateWebhook, (c, { body, caller }) => updateWebhook(c.get("auth"), caller, body));

  route(organizationEndpoints.rotateWebhookSecret, (c, { body, caller }) =>
    rotateWebhookSecret(c.get("auth"), caller, body.webhookId),
  );

  route(organizationEndpoints.testWebhook, (c, { body, caller }) => testWebhook(c.get("auth"), caller, body.webhookId));

  route(organizationEndpoints.deleteWebhook, async (c, { body, caller }) => {
    await deleteWebhook(c.get("auth"), caller, body.webhookId);
    return { success: true };
  });
}
