import type { ReactNode } from "react";
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from "react-router";
import type { Organization } from "../../contract/api-models.js";
import { useActiveOrganization, useListOrganizations, useSession } from "../../react/index.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { Loading } from "./ui.js";

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
    const error = params.get("error");
    params.delete("error");
    params.delete("error_description");
    const rest = params.size ? `?${params}` : "";
    const target = new URLSearchParams({ redirectTo: location.pathname + rest, ...(error ? { error } : {}) });
    return <Navigate to={`/sign-in?${target}`} replace />;
  }
  return <>{children}</>;
}

export function AppShell() {
  const session = useSession();
  const organizations = useListOrganizations();
  const active = useActiveOrganization();
  const config = useAppConfig();
  const navigate = useNavigate();
  const nav = [
    { to: "/", label: "Home", end: true },
    { to: "/account", label: "Account" },
    { to: "/organization", label: "Organization" },
    ...(config.devOutbox ? [{ to: "/dev/outbox", label: "Mail outbox" }] : []),
  ];
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
