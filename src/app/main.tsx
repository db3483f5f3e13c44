import { QueryClientProvider } from "@tanstack/react-query";
import { type ComponentType, lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { AuthProvider } from "../react/index.js";
import { AppShell } from "./components/shell.js";
import { Loading } from "./components/ui.js";
import { authClient, queryClient } from "./lib/client.js";
import { I18nProvider, useT } from "./lib/i18n.js";
import { applyStoredTheme } from "./lib/theme.js";
import "../react/components.css";
import "./styles.css";

function PageLoading() {
  return <Loading label={useT()("details.loading.page")} />;
}

/**
 * A page whose module loads on first visit (each area is its own chunk, so the first screen does not
 * wait for the admin or organization code), with an announced loading state meanwhile.
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const Page = lazy(() => load().then((module) => ({ default: pick(module) })));
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}

const authPages = () => import("./pages/auth-pages.js");
const accountPages = () => import("./pages/account-pages.js");
const organizationPages = () => import("./pages/organization-pages.js");
const adminPages = () => import("./pages/admin-pages.js");
const miscPages = () => import("./pages/misc-pages.js");
const outboxPage = () => import("./pages/outbox-page.js");
const magicLinkPages = () => import("./pages/magic-link-page.js");

const router = createBrowserRouter([
  { path: "/sign-in", element: page(authPages, (m) => m.SignInPage) },
  { path: "/sign-up", element: page(authPages, (m) => m.SignUpPage) },
  { path: "/two-factor", element: page(authPages, (m) => m.TwoFactorPage) },
  { path: "/magic-link", element: page(magicLinkPages, (m) => m.MagicLinkPage) },
  { path: "/sign-in/link", element: page(authPages, (m) => m.SignInLinkPage) },
  { path: "/sign-in/code", element: page(authPages, (m) => m.EmailCodePage) },
  { path: "/forgot-password", element: page(authPages, (m) => m.ForgotPasswordPage) },
  { path: "/reset-password", element: page(authPages, (m) => m.ResetPasswordPage) },
  { path: "/secure-account", element: page(authPages, (m) => m.SecureAccountPage) },
  { path: "/verified", element: page(authPages, (m) => m.VerifiedPage) },
  { path: "/verify-email", element: page(authPages, (m) => m.VerifyEmailConfirmPage) },
  { path: "/accept-invitation/:id", element: page(miscPages, (m) => m.AcceptInvitationPage) },
  // Signed out too: whoever forgot their password must be able to read the reset mail (development only).
  { path: "/dev/outbox", element: page(outboxPage, (m) => m.OutboxPage) },
  {
    path: "/dev/components",
    element: page(
      () => import("./pages/components-page.js"),
      (m) => m.ComponentsPage,
    ),
  },
  {
    element: <AppShell />,
    children: [
      { index: true, element: page(miscPages, (m) => m.HomePage) },
      {
        path: "account",
        element: page(accountPages, (m) => m.AccountLayout),
        children: [
          { index: true, element: page(accountPages, (m) => m.ProfilePage) },
          { path: "security", element: page(accountPages, (m) => m.SecurityPage) },
          { path: "sessions", element: page(accountPages, (m) => m.SessionsPage) },
          { path: "linked", element: page(accountPages, (m) => m.LinkedAccountsPage) },
          { path: "delete", element: page(accountPages, (m) => m.DeleteAccountPage) },
        ],
      },
      { path: "organizations/new", element: page(organizationPages, (m) => m.CreateOrganizationPage) },
      {
        path: "organization",
        element: page(organizationPages, (m) => m.OrganizationLayout),
        children: [
          { index: true, element: page(organizationPages, (m) => m.OrganizationSettingsPage) },
          { path: "members", element: page(organizationPages, (m) => m.MembersPage) },
          { path: "invitations", element: page(organizationPages, (m) => m.InvitationsPage) },
          { path: "teams", element: page(organizationPages, (m) => m.TeamsPage) },
          {
            path: "connections",
            element: page(
              () => import("./pages/connections-page.js"),
              (m) => m.ConnectionsPage,
            ),
          },
          {
            path: "directory",
            element: page(
              () => import("./pages/directory-page.js"),
              (m) => m.DirectoryPage,
            ),
          },
          {
            path: "policy",
            element: page(
              () => import("./pages/policy-page.js"),
              (m) => m.PolicyPage,
            ),
          },
          {
            path: "audit",
            element: page(
              () => import("./pages/organization-audit-page.js"),
              (m) => m.OrganizationAuditPage,
            ),
          },
          {
            path: "webhooks",
            element: page(
              () => import("./pages/organization-webhooks-page.js"),
              (m) => m.OrganizationWebhooksPage,
            ),
          },
        ],
      },
      {
        path: "admin",
        element: page(adminPages, (m) => m.AdminLayout),
        children: [
          { index: true, element: page(adminPages, (m) => m.UsersPage) },
          {
            path: "users/:id",
            element: page(
              () => import("./pages/admin-user-page.js"),
              (m) => m.AdminUserPage,
            ),
          },
          { path: "audit", element: page(adminPages, (m) => m.AuditLogPage) },
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
