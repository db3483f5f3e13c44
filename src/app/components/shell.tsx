import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from "react-router";
import type { Organization } from "../../contract/api-models.js";
import { useActiveOrganization, useListOrganizations, useSession } from "../../react/index.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { hasAdminRole } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";
import { Button, FormError, Loading } from "./ui.js";

/** Props-only: the organization picker in the header. */
export function OrganizationSwitcher({
  organizations,
  activeId,
  onChange,
}: {
  organizations: Organization[];
  activeId: string | null;
  onChange: (organizationId: string) => void;
}) {
  return (
    <div className="switcher">
      <label htmlFor="org-switcher" className="visually-hidden">
        Active organization
      </label>
      <select
        id="org-switcher"
        data-testid="org-switcher"
        value={activeId ?? ""}
        onChange={(e) => (e.target.value === "__new" ? onChange("__new") : onChange(e.target.value))}
      >
        <option value="" disabled>
          {organizations.length ? "Choose an organization" : "No organization"}
        </option>
        {organizations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
        <option value="__new">+ Create organization</option>
      </select>
    </div>
  );
}

/** Pages behind it need a session; without one the visitor goes to sign-in and comes back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending || (session.isRefetching && !session.data)) return <Loading />;
  if (!session.data) {
    // An error handed to the application (`/?error=...` from a failed sign-in) is shown on sign-in.
    const params = new URLSearchParams(location.search);
    // A provider sign-in that owes a second factor comes back here with twoFactorRedirect=true.
    if (params.get("twoFactorRedirect") === "true") {
      params.delete("twoFactorRedirect");
      const back = location.pathname + (params.size ? `?${params}` : "");
      return <Navigate to={`/two-factor?${new URLSearchParams({ redirectTo: back })}`} replace />;
    }
    const error = params.get("error");
    params.delete("error");
    params.delete("error_description");
    const rest = params.size ? `?${params}` : "";
    const target = new URLSearchParams({ redirectTo: location.pathname + rest, ...(error ? { error } : {}) });
    return <Navigate to={`/sign-in?${target}`} replace />;
  }
  return <>{children}</>;
}

/** Props-only: shown on every page while an admin acts as another user. */
export function ImpersonationBanner({
  name,
  onStop,
  pending,
  error,
}: {
  name: string;
  onStop: () => void;
  pending?: boolean;
  error?: { code?: string } | null;
}) {
  return (
    <section className="impersonation-banner" aria-label="Impersonation" data-testid="impersonation-banner">
      <p>
        You are acting as <strong>{name}</strong>
      </p>
      <Button type="button" variant="secondary" pending={pending} data-testid="stop-impersonating" onClick={onStop}>
        Stop impersonating
      </Button>
      <FormError error={error ?? null} testId="stop-impersonating-error" />
    </section>
  );
}

export function AppShell() {
  const session = useSession();
  const organizations = useListOrganizations();
  const active = useActiveOrganization();
  const config = useAppConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stop = useSubmit(authClient.admin.stopImpersonating);
  const nav = [
    { to: "/", label: "Home", end: true },
    { to: "/account", label: "Account" },
    { to: "/organization", label: "Organization" },
    ...(hasAdminRole(session.data?.user.role) ? [{ to: "/admin", label: "Admin" }] : []),
    ...(config.devOutbox ? [{ to: "/dev/outbox", label: "Mail outbox" }] : []),
  ];
  const stopImpersonating = async () => {
    const impersonatedId = session.data?.user.id;
    const restored = await stop.run();
    if (!restored) return;
    // Back to the admin's own session, on the page of the user they were acting as.
    authClient.$store.session.setData(restored);
    navigate(impersonatedId ? `/admin/users/${impersonatedId}` : "/admin");
    await queryClient.resetQueries();
  };
  const switchTo = async (organizationId: string) => {
    if (organizationId === "__new") return navigate("/organizations/new");
    await authClient.organization.setActive({ organizationId });
    await authClient.$store.activeOrganization.refetch();
    navigate("/organization");
  };
  const signOut = async () => {
    await authClient.signOut();
    navigate("/sign-in");
  };
  return (
    <RequireSession>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {session.data?.session.impersonatedBy && (
        <ImpersonationBanner
          name={session.data.user.name || session.data.user.email}
          pending={stop.pending}
          error={stop.error}
          onStop={() => void stopImpersonating()}
        />
      )}
      <header className="shell-header">
        <NavLink to="/" className="brand">
          Gatehouse
        </NavLink>
        <OrganizationSwitcher
          organizations={organizations.data ?? []}
          activeId={active.data?.id ?? null}
          onChange={(id) => void switchTo(id)}
        />
        <div className="user-menu">
          <span data-testid="shell-user" className="user-name">
            {session.data?.user.name}
            {session.data?.user.isAnonymous ? " (guest)" : ""}
          </span>
          <button type="button" className="button secondary" data-testid="sign-out" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="shell-nav" aria-label="Main">
        <ul>
          {nav.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="shell-main">
        <Outlet />
      </main>
    </RequireSession>
  );
}

/** A settings area: a heading, its own nav array, and the page beside it. */
export function SettingsLayout({ title, items }: { title: string; items: { to: string; label: string }[] }) {
  return (
    <div className="settings">
      <h1>{title}</h1>
      <div className="settings-body">
        <nav aria-label={title} className="settings-nav">
          <ul>
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-page">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="auth-layout">
      <div className="auth-card">
        <p className="brand">Gatehouse</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
