import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { AuthProvider } from "../react/index.js";
import { AppShell } from "./components/shell.js";
import { authClient, queryClient } from "./lib/client.js";
import { I18nProvider } from "./lib/i18n.js";
import { applyStoredTheme } from "./lib/theme.js";
import {
  AccountLayout,
  DeleteAccountPage,
  LinkedAccountsPage,
  ProfilePage,
  SecurityPage,
  SessionsPage,
} from "./pages/account-pages.js";
import { AdminLayout, AuditLogPage, UsersPage } from "./pages/admin-pages.js";
import { AdminUserPage } from "./pages/admin-user-page.js";
import { ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage, VerifiedPage } from "./pages/auth-pages.js";
import { EmailCodePage } from "./pages/email-code-page.js";
import { MagicLinkPage, MagicLinkRequestPage } from "./pages/magic-link-page.js";
import { AcceptInvitationPage, HomePage, OutboxPage } from "./pages/misc-pages.js";
import {
  CreateOrganizationPage,
  InvitationsPage,
  MembersPage,
  OrganizationLayout,
  OrganizationSettingsPage,
} from "./pages/organization-pages.js";
import { TeamsPage } from "./pages/teams-page.js";
import { TwoFactorPage } from "./pages/two-factor-page.js";
import "../react/components.css";
import "./styles.css";

const router = createBrowserRouter([
  { path: "/sign-in", element: <SignInPage /> },
  { path: "/sign-up", element: <SignUpPage /> },
  { path: "/two-factor", element: <TwoFactorPage /> },
  { path: "/magic-link", element: <MagicLinkPage /> },
  { path: "/sign-in/link", element: <MagicLinkRequestPage /> },
  { path: "/sign-in/code", element: <EmailCodePage /> },
  { path: "/forgot-password", element: <ForgotPasswordPage /> },
  { path: "/reset-password", element: <ResetPasswordPage /> },
  { path: "/verified", element: <VerifiedPage /> },
  { path: "/accept-invitation/:id", element: <AcceptInvitationPage /> },
  // Signed out too: whoever forgot their password must be able to read the reset mail (development only).
  { path: "/dev/outbox", element: <OutboxPage /> },
  {
    element: <AppShell />,
    children: [
      { index: true, element: <HomePage /> },
      {
        path: "account",
        element: <AccountLayout />,
        children: [
          { index: true, element: <ProfilePage /> },
          { path: "security", element: <SecurityPage /> },
          { path: "sessions", element: <SessionsPage /> },
          { path: "linked", element: <LinkedAccountsPage /> },
          { path: "delete", element: <DeleteAccountPage /> },
        ],
      },
      { path: "organizations/new", element: <CreateOrganizationPage /> },
      {
        path: "organization",
        element: <OrganizationLayout />,
        children: [
          { index: true, element: <OrganizationSettingsPage /> },
          { path: "members", element: <MembersPage /> },
          { path: "invitations", element: <InvitationsPage /> },
          { path: "teams", element: <TeamsPage /> },
        ],
      },
      {
        path: "admin",
        element: <AdminLayout />,
        children: [
          { index: true, element: <UsersPage /> },
          { path: "users/:id", element: <AdminUserPage /> },
          { path: "audit", element: <AuditLogPage /> },
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
