import { Outlet, useNavigate } from "react-router";
import { renderSVG } from "uqr";
import { UserProfile, type UserProfileSection, useActiveMember, useListOrganizations } from "../../react/index.js";
import { SaveGuestAccountCard } from "../components/save-guest-card.js";
import { Notice } from "../components/ui.js";
import { useI18n, usePageTitle, useT } from "../lib/i18n.js";

/*
 * The account pages are the exported UserProfile, one route per section (its menu links to them
 * through the router): one code path for this application and for applications using the package.
 */

const paths: Record<UserProfileSection, string> = {
  profile: "/account",
  security: "/account/security",
  sessions: "/account/sessions",
  linked: "/account/linked",
  applications: "/account/applications",
  delete: "/account/delete",
};

const titles = {
  profile: "profile.title",
  security: "security.title",
  sessions: "sessions.nav",
  linked: "linked.title",
  applications: "connectedApps.title",
  delete: "deleteAccount.title",
} as const;

/** Where a deleted account lands: sign-in, which says the account is gone (auth-pages.tsx). */
export const ACCOUNT_DELETED_PATH = "/sign-in?accountDeleted=true";

/** The QR code is drawn here, in the browser: the secret never goes to another service. */
function QrCode({ uri }: { uri: string }) {
  const t = useT();
  const src = `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(uri, { border: 2 }))}`;
  return <img className="gh-qr" src={src} width={192} height={192} alt={t("twoFactor.qrAlt")} />;
}

export function AccountLayout() {
  return <Outlet />;
}

function AccountSection({ section }: { section: UserProfileSection }) {
  const { locale } = useI18n();
  const navigate = useNavigate();
  usePageTitle(titles[section]);
  return (
    <div className="account-profile">
      {section === "security" && <OrganizationRequiresTwoFactor />}
      <UserProfile
        localization={locale}
        navigate={(href) => navigate(href)}
        section={section}
        sectionHref={(target) => paths[target]}
        afterDeleteHref={ACCOUNT_DELETED_PATH}
        qrCode={(uri) => <QrCode uri={uri} />}
        guest={<SaveGuestAccountCard />}
      />
    </div>
  );
}

/** Where the organization screens send a member its policy holds back: why they are here. */
function OrganizationRequiresTwoFactor() {
  const member = useActiveMember();
  const list = useListOrganizations();
  const t = useT();
  if (!member.data?.organizationPolicy?.unmet.includes("TWO_FACTOR_REQUIRED_BY_ORGANIZATION")) return null;
  const name = list.data?.find((org) => org.id === member.data?.organizationId)?.name ?? "";
  return (
    <Notice testId="security-org-requires-two-factor">
      {t("security.orgRequiresTwoFactor", { organization: name })}
    </Notice>
  );
}

export const ProfilePage = () => <AccountSection section="profile" />;
export const SecurityPage = () => <AccountSection section="security" />;
export const SessionsPage = () => <AccountSection section="sessions" />;
export const LinkedAccountsPage = () => <AccountSection section="linked" />;
export const ConnectedApplicationsPage = () => <AccountSection section="applications" />;
export const DeleteAccountPage = () => <AccountSection section="delete" />;
