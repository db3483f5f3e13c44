import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, NavLink, Outlet, useLocation, useNavigate, useNavigation } from "react-router";
import type { MessageKey } from "../../i18n/index.js";
import { OrganizationSwitcher, UserButton, useIsAdmin, useSession } from "../../react/index.js";
import { accountPages, adminPages, miscPages, organizationPages, outboxPage, prefetchArea } from "../areas.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { usePageTitle, useT } from "../lib/i18n.js";
import { useSubmit } from "../lib/use-submit.js";
import { PreferencesFooter } from "./preferences.js";
import { Button, FormError, Loading, Notice } from "./ui.js";

/** Pages behind it need a session; without one the visitor goes to sign-in and comes back after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const navigating = useNavigation().state !== "idle";
  if (session.isPending || (session.isRefetching && !session.data)) return <Loading />;
  // Signed out on the way to another page (sign-out leads to sign-in, whose module may still be
  // loading): that page decides, not a redirect back to the one being left.
  if (!session.data && navigating) return <Loading />;
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
  const t = useT();
  return (
    <section className="impersonation-banner" aria-label={t("impersonation.label")} data-testid="impersonation-banner">
      <p>
        {t("impersonation.actingAs")} <strong>{name}</strong>
      </p>
      <Button type="button" variant="secondary" pending={pending} data-testid="stop-impersonating" onClick={onStop}>
        {t("impersonation.stop")}
      </Button>
      <FormError error={error ?? null} testId="stop-impersonating-error" />
    </section>
  );
}

/** The query flag a sign-in that stripped an unproven account comes back with (CREDENTIALS_REMOVED_PARAM). */
export const CREDENTIALS_REMOVED_PARAM = "credentialsRemoved";

/** Adds the flag to an in-app path, so the page the sign-in lands on says what happened. */
export function withCredentialsRemovedNotice(path: string): string {
  const url = new URL(path, "http://app.invalid");
  url.searchParams.set(CREDENTIALS_REMOVED_PARAM, "true");
  return url.pathname + url.search + url.hash;
}

/**
 * After a sign-in link or code took an account whose address had never been confirmed: its earlier
 * credentials are gone (a mail says so too). Shown until dismissed, which drops the flag.
 */
function CredentialsRemovedNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const t = useT();
  const params = new URLSearchParams(location.search);
  if (params.get(CREDENTIALS_REMOVED_PARAM) !== "true") return null;
  const dismiss = () => {
    params.delete(CREDENTIALS_REMOVED_PARAM);
    navigate(location.pathname + (params.size ? `?${params}` : ""), { replace: true });
  };
  return (
    <div className="credentials-removed" data-testid="credentials-removed">
      <Notice>{t("notice.credentialsRemoved")}</Notice>
      <Button type="button" variant="secondary" onClick={dismiss} data-testid="credentials-removed-dismiss">
        {t("notice.dismiss")}
      </Button>
    </div>
  );
}

export function AppShell() {
  const session = useSession();
  const isAdmin = useIsAdmin();
  const config = useAppConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stop = useSubmit(authClient.admin.stopImpersonating);
  const t = useT();
  const location = useLocation();
  // The router keeps the current page while it loads the next one's module: say the page is changing.
  const loadingPage = useNavigation().state === "loading";
  // Narrow screens fold the main nav behind a menu button (styles.css); a page change folds it again.
  const [navOpen, setNavOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not a value read
  useEffect(() => setNavOpen(false), [location.pathname]);
  const nav = [
    { to: "/", label: t("nav.home"), end: true, area: miscPages },
    { to: "/account", label: t("nav.account"), area: accountPages },
    { to: "/organization", label: t("nav.organization"), area: organizationPages },
    ...(isAdmin ? [{ to: "/admin", label: t("nav.admin"), area: adminPages }] : []),
    ...(config.devOutbox ? [{ to: "/dev/outbox", label: t("nav.outbox"), area: outboxPage }] : []),
  ];
  // The exported components know no catalogue: the application hands them its words.
  const userButtonLabels = {
    menu: t("userButton.menu"),
    guest: t("userButton.guest"),
    account: t("nav.account"),
    admin: t("nav.admin"),
    signOut: t("userButton.signOut"),
  };
  const switcherLabels = {
    menu: t("switcher.menu"),
    prefix: t("switcher.prefix"),
    none: t("switcher.none"),
    create: t("switcher.create"),
    invitation: (organization: string) => t("switcher.invitation", { organization }),
    pendingInvitations: (count: number) => t("switcher.pendingInvitations", { count }),
  };
  const stopImpersonating = async () => {
    const impersonatedId = session.data?.user.id;
    const restored = await stop.run();
    if (!restored) return;
    // Back to the admin's own session, on the page of the user they were acting as.
    authClient.$store.session.setData(restored);
    navigate(impersonatedId ? `/admin/users/${impersonatedId}` : "/admin");
    await queryClient.resetQueries();
  };
  return (
    <RequireSession>
      <a href="#main" className="skip-link">
        {t("shell.skipLink")}
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
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={navOpen}
          aria-controls="shell-nav"
          data-testid="nav-toggle"
          onClick={() => setNavOpen(!navOpen)}
        >
          <span className="nav-toggle-icon" aria-hidden="true" />
          <span className="visually-hidden">{t("nav.menu")}</span>
        </button>
        <NavLink to="/" className="brand">
          {t("app.name")}
        </NavLink>
        <OrganizationSwitcher
          navigate={navigate}
          afterSelect={() => navigate("/organization")}
          labels={switcherLabels}
        />
        <div className="user-menu">
          <UserButton navigate={navigate} labels={userButtonLabels} />
        </div>
      </header>
      <nav id="shell-nav" className={navOpen ? "shell-nav open" : "shell-nav"} aria-label={t("nav.main")}>
        <ul>
          {nav.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                onPointerEnter={() => prefetchArea(item.area)}
                onFocus={() => prefetchArea(item.area)}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="shell-main" aria-busy={loadingPage || undefined}>
        <CredentialsRemovedNotice />
        <Outlet />
      </main>
      <PreferencesFooter />
    </RequireSession>
  );
}

/** A settings area: a heading, its own nav array, and the page beside it; `aside` sits under the heading. */
export function SettingsLayout({
  title,
  items,
  aside,
}: {
  title: string;
  items: { to: string; label: string }[];
  aside?: ReactNode;
}) {
  return (
    <div className="settings">
      <h1>{title}</h1>
      {aside}
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

/** A signed-out screen: its title is the heading and the document title. */
/** A signed-out screen drawn by an exported component (SignIn, SignUp), which brings its own card and heading. */
export function ComponentLayout({ titleKey, children }: { titleKey: MessageKey; children: ReactNode }) {
  const t = useT();
  usePageTitle(titleKey);
  return (
    <>
      <main id="main" className="auth-layout">
        <div className="auth-stack">
          <p className="brand">{t("app.name")}</p>
          {children}
        </div>
      </main>
      <PreferencesFooter />
    </>
  );
}

export function AuthLayout({ titleKey, children }: { titleKey: MessageKey; children: ReactNode }) {
  const t = useT();
  usePageTitle(titleKey);
  return (
    <>
      <main id="main" className="auth-layout">
        <div className="auth-card">
          <p className="brand">{t("app.name")}</p>
          <h1>{t(titleKey)}</h1>
          {children}
        </div>
      </main>
      <PreferencesFooter />
    </>
  );
}
