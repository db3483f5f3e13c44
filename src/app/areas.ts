/**
 * The application's areas, each its own chunk (main.tsx's routes load them on first visit), and the
 * shell's way to start loading one before it is asked for.
 */
export const authPages = () => import("./pages/auth-pages.js");
export const accountPages = () => import("./pages/account-pages.js");
export const organizationPages = () => import("./pages/organization-pages.js");
export const adminPages = () => import("./pages/admin-pages.js");
export const miscPages = () => import("./pages/misc-pages.js");
export const outboxPage = () => import("./pages/outbox-page.js");
export const magicLinkPages = () => import("./pages/magic-link-page.js");
export const componentsPage = () => import("./pages/components-page.js");
export const connectionsPage = () => import("./pages/connections-page.js");
export const directoryPage = () => import("./pages/directory-page.js");
export const policyPage = () => import("./pages/policy-page.js");
export const organizationAuditPage = () => import("./pages/organization-audit-page.js");
export const organizationWebhooksPage = () => import("./pages/organization-webhooks-page.js");
export const organizationApiKeysPage = () => import("./pages/organization-api-keys-page.js");
export const adminUserPage = () => import("./pages/admin-user-page.js");
export const setupPage = () => import("./pages/setup-page.js");
export const oauthPages = () => import("./pages/oauth-pages.js");

/**
 * Starts loading an area before it is asked for (the shell's nav links, when the pointer rests on one
 * or it takes focus): by the click the module has usually arrived. A failure is left to the visit,
 * which reports it.
 */
export function prefetchArea(load: () => Promise<unknown>): void {
  load().catch(() => {});
}
