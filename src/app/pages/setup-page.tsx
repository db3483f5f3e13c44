import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { OrganizationSetup } from "../../react/index.js";
import { useI18n, usePageTitle } from "../lib/i18n.js";

/*
 * The page a setup link opens (`/setup#<token>`; docs/sso.md, "Let the customer set it up"): the
 * exported <OrganizationSetup/>, as the organization pages render OrganizationProfile, for a customer's
 * IT admin with no account. The token is read from the fragment (never sent in a request line or a
 * Referer), handed to the component, which exchanges it once for the link's cookie, and taken out of
 * the address bar; without one (a reload, the way back from a test sign-in) the open link is read.
 */

/** The fragment's token, read once per page load (a pure read: StrictMode may run it twice), then cleared. */
function useFragmentToken(): string {
  const [token] = useState(() => window.location.hash.slice(1));
  useEffect(() => {
    if (token) window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}`);
  }, [token]);
  return token;
}

export function SetupPage() {
  const navigate = useNavigate();
  const { locale } = useI18n();
  usePageTitle("setup.title");
  const token = useFragmentToken();
  return (
    <main className="page" data-testid="setup-page">
      <OrganizationSetup token={token} localization={locale} navigate={(href) => navigate(href)} headingLevel={1} />
    </main>
  );
}
