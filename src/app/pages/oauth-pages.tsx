import { useNavigate } from "react-router";
import {
  DeviceAuthorization,
  OAuthClients,
  OAuthConsent,
  useActiveMember,
  useActiveOrganization,
} from "../../react/index.js";
import { ComponentLayout, RequireSession } from "../components/shell.js";
import { Card, Loading } from "../components/ui.js";
import { useAppConfig } from "../lib/config.js";
import { useI18n, usePageTitle, useT } from "../lib/i18n.js";
import { useRoles } from "../lib/permissions.js";

/*
 * The OAuth provider's pages (docs/oauth-provider.md): its consent page and device page, outside the
 * shell as sign-in is (the user is between an application and this one), and an organization's
 * OAuth clients. Each is the exported component, in the app's language and router.
 */

function useComponentProps() {
  const { locale } = useI18n();
  const navigate = useNavigate();
  return { localization: locale, navigate: (href: string) => navigate(href) };
}

/** The provider's `consentPage` (/oauth/consent): the signed request is the page's query. */
export function ConsentPage() {
  return (
    <RequireSession>
      <ComponentLayout titleKey="oauth.consent.title">
        <OAuthConsent {...useComponentProps()} />
      </ComponentLayout>
    </RequireSession>
  );
}

/** The provider's `deviceVerificationPage` (/device, `?user_code=` from verification_uri_complete). */
export function DevicePage() {
  return (
    <RequireSession>
      <ComponentLayout titleKey="deviceAuth.title">
        <DeviceAuthorization {...useComponentProps()} />
      </ComponentLayout>
    </RequireSession>
  );
}

/** The active organization's OAuth clients: its owners' (the server refuses anyone else). */
export function OrganizationOAuthClientsPage() {
  const { isOwner } = useRoles();
  const { locale } = useI18n();
  const t = useT();
  const config = useAppConfig();
  const active = useActiveOrganization();
  const member = useActiveMember();
  usePageTitle("oauthClients.title");
  if (!active.data || member.isPending) return <Loading />;
  if (!config.oauthProvider || !isOwner(member.data?.role)) {
    return (
      <Card title={t("oauthClients.title")} testId="oauth-clients-restricted">
        <p>{t("error.OAUTH_CLIENT_ACCESS_DENIED")}</p>
      </Card>
    );
  }
  return <OAuthClients organizationId={active.data.id} localization={locale} />;
}

/** Every OAuth client, in the admin area (the admin layout has checked the caller; the server checks each call). */
export function AdminOAuthClientsPage() {
  const { locale } = useI18n();
  usePageTitle("admin.oauthClients.title");
  return <OAuthClients all localization={locale} />;
}
