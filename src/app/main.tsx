import { QueryClientProvider } from "@tanstack/react-query";
import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { AuthProvider } from "../react/index.js";
import {
  accountPages,
  adminPages,
  adminUserPage,
  authPages,
  componentsPage,
  connectionsPage,
  directoryPage,
  magicLinkPages,
  miscPages,
  oauthPages,
  organizationApiKeysPage,
  organizationAuditPage,
  organizationPages,
  organizationWebhooksPage,
  outboxPage,
  policyPage,
  setupPage,
} from "./areas.js";
import { PageError } from "./components/page-error.js";
import { AppShell } from "./components/shell.js";
import { PageLoading } from "./components/ui.js";
import { authClient, queryClient } from "./lib/client.js";
import { I18nProvider } from "./lib/i18n.js";
import { applyStoredTheme } from "./lib/theme.js";
import "../react/components.css";
import "./styles.css";

/**
 * A page whose module loads on first visit (each area is its own chunk, so the first screen does not
 * wait for the admin or organization code). The router loads it before it shows the page: on a later
 * visit the current page stays until the next is ready, and on the first screen an announced loading
 * state shows meanwhile. Not React.lazy under Suspense: React holds a boundary's fallback for a
 * minimum time once shown, so every first visit to an area took longer than its loads (bench/README.md,
 * "the first visit").
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return {
    lazy: async () => ({ Component: pick(await load()) }),
    hydrateFallbackElement: <PageLoading />,
  };
}

const router = createBrowserRouter([
  {
    // A page that cannot be shown (its module from an older build, say) gets this, not the router's own.
    errorElement: <PageError />,
    children: [
      { path: "/sign-in", ...page(authPages, (m) => m.SignInPage) },
      { path: "/sign-up", ...page(authPages, (m) => m.SignUpPage) },
      { path: "/two-factor", ...page(authPages, (m) => m.TwoFactorPage) },
      { path: "/magic-link", ...page(magicLinkPages, (m) => m.MagicLinkPage) },
      { path: "/sign-in/link", ...page(authPages, (m) => m.SignInLinkPage) },
      { path: "/sign-in/code", ...page(authPages, (m) => m.EmailCodePage) },
      { path: "/forgot-password", ...page(authPages, (m) => m.ForgotPasswordPage) },
      { path: "/reset-password", ...page(authPages, (m) => m.ResetPasswordPage) },
      { path: "/secure-account", ...page(authPages, (m) => m.SecureAccountPage) },
      { path: "/verified", ...page(authPages, (m) => m.VerifiedPage) },
      { path: "/verify-email", ...page(authPages, (m) => m.VerifyEmailConfirmPage) },
      { path: "/accept-invitation/:id", ...page(miscPages, (m) => m.AcceptInvitationPage) },
      // Signed out too: whoever forgot their password must be able to read the reset mail (development only).
      { path: "/dev/outbox", ...page(outboxPage, (m) => m.OutboxPage) },
      { path: "/dev/components", ...page(componentsPage, (m) => m.ComponentsPage) },
      // A setup link's holder has no account: outside the shell, which expects one.
      { path: "/setup", ...page(setupPage, (m) => m.SetupPage) },
      // The OAuth provider's consentPage and deviceVerificationPage: between an application and this one.
      { path: "/oauth/consent", ...page(oauthPages, (m) => m.ConsentPage) },
      { path: "/device", ...page(oauthPages, (m) => m.DevicePage) },
      {
        element: <AppShell />,
        children: [
          { index: true, ...page(miscPages, (m) => m.HomePage) },
          {
            path: "account",
            ...page(accountPages, (m) => m.AccountLayout),
            children: [
              { index: true, ...page(accountPages, (m) => m.ProfilePage) },
              { path: "security", ...page(accountPages, (m) => m.SecurityPage) },
              { path: "sessions", ...page(accountPages, (m) => m.SessionsPage) },
              { path: "linked", ...page(accountPages, (m) => m.LinkedAccountsPage) },
              { path: "applications", ...page(accountPages, (m) => m.ConnectedApplicationsPage) },
              { path: "delete", ...page(accountPages, (m) => m.DeleteAccountPage) },
            ],
          },
          { path: "organizations/new", ...page(organizationPages, (m) => m.CreateOrganizationPage) },
          {
            path: "organization",
            ...page(organizationPages, (m) => m.OrganizationLayout),
            children: [
              { index: true, ...page(organizationPages, (m) => m.OrganizationSettingsPage) },
              { path: "members", ...page(organizationPages, (m) => m.MembersPage) },
              { path: "invitations", ...page(organizationPages, (m) => m.InvitationsPage) },
              { path: "teams", ...page(organizationPages, (m) => m.TeamsPage) },
              { path: "connections", ...page(connectionsPage, (m) => m.ConnectionsPage) },
              { path: "directory", ...page(directoryPage, (m) => m.DirectoryPage) },
              { path: "policy", ...page(policyPage, (m) => m.PolicyPage) },
              { path: "audit", ...page(organizationAuditPage, (m) => m.OrganizationAuditPage) },
              { path: "webhooks", ...page(organizationWebhooksPage, (m) => m.OrganizationWebhooksPage) },
              { path: "api-keys", ...page(organizationApiKeysPage, (m) => m.OrganizationApiKeysPage) },
              { path: "oauth-clients", ...page(oauthPages, (m) => m.OrganizationOAuthClientsPage) },
            ],
          },
          {
            path: "admin",
            ...page(adminPages, (m) => m.AdminLayout),
            children: [
              { index: true, ...page(adminPages, (m) => m.UsersPage) },
              { path: "users/:id", ...page(adminUserPage, (m) => m.AdminUserPage) },
              { path: "audit", ...page(adminPages, (m) => m.AuditLogPage) },
              { path: "oauth-clients", ...page(oauthPages, (m) => m.AdminOAuthClientsPage) },
            ],
          },
        ],
      },
    ],
  },
]);

// public/theme.js applied the theme before the first paint; this covers a page served without it.
applyStoredTheme();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <AuthProvider client={authClient}>
          <RouterProvider router={router} />
        </AuthProvider>
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
