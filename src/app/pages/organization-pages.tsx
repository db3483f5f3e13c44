import { Link, useLocation, useNavigate } from "react-router";
import type { MessageKey } from "../../i18n/index.js";
import {
  CreateOrganization,
  OrganizationList,
  OrganizationProfile,
  type OrganizationSectionId,
  useActiveMember,
  useActiveOrganization,
  useListOrganizations,
} from "../../react/index.js";
import { SettingsLayout } from "../components/shell.js";
import { Button, Card, Loading } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { type AppConfig, useAppConfig } from "../lib/config.js";
import { useI18n, usePageTitle, useT } from "../lib/i18n.js";
import { messageFor } from "../lib/messages.js";
import { holdsCreatorRole, roleCan } from "../lib/permissions.js";
import { readsOrganizationTrail } from "./organization-audit-page.js";

/** The exported CreateOrganization; the organization's page then says it is ready. */
export function CreateOrganizationPage() {
  const navigate = useNavigate();
  const { locale, t } = useI18n();
  usePageTitle("org.create.title");
  return (
    <div className="component-page">
      <CreateOrganization
        localization={locale}
        navigate={(href) => navigate(href)}
        onCreated={(organization) =>
          navigate("/organization", { state: { notice: t("org.created", { name: organization.name }) } })
        }
      />
    </div>
  );
}

interface SectionEntry {
  to: string;
  label: MessageKey;
  /** Who sees the entry (every member when absent). */
  when?: (role: string | undefined, config: AppConfig) => boolean;
}

/**
 * The organization area's navigation, one entry per section: a section of its own (route under
 * /organization) adds one line here.
 */
const sectionEntries: SectionEntry[] = [
  { to: "/organization", label: "org.settings.title" },
  { to: "/organization/members", label: "members.title" },
  {
    to: "/organization/invitations",
    label: "invitations.title",
    when: (role, config) => roleCan(config.organization.roles, role, "invitation", "create"),
  },
  { to: "/organization/teams", label: "teams.title", when: (_, config) => config.organization.teams },
  // SSO connections: owners and admins only (the server refuses everyone else anyway).
  {
    to: "/organization/connections",
    label: "connections.title",
    when: (role, config) => config.sso && roleCan(config.organization.roles, role, "organization", "update"),
  },
  // SCIM is the owners' alone; admins may read the policy. Plain members see neither.
  {
    to: "/organization/directory",
    label: "directory.title",
    when: (role, config) => config.scim && holdsCreatorRole(config.organization.roles, role),
  },
  {
    to: "/organization/policy",
    label: "policy.title",
    when: (role, config) => roleCan(config.organization.roles, role, "organization", "update"),
  },
  {
    to: "/organization/audit",
    label: "audit.trail.title",
    when: (role, config) => readsOrganizationTrail(config, role),
  },
  // Keys and machine clients: those whose role may read the organization's keys (owners, or apiKey:read).
  {
    to: "/organization/api-keys",
    label: "apiKeys.title",
    when: (role, config) =>
      config.apiKeys &&
      (holdsCreatorRole(config.organization.roles, role) || roleCan(config.organization.roles, role, "apiKey", "read")),
  },
  // The organization's own webhooks (its audit trail streamed out): owners only, as the trail is.
  {
    to: "/organization/webhooks",
    label: "webhooks.title",
    when: (role, config) => config.organizationWebhooks && holdsCreatorRole(config.organization.roles, role),
  },
  // Its OAuth clients: owners only, as the server's client management is.
  {
    to: "/organization/oauth-clients",
    label: "oauthClients.title",
    when: (role, config) => config.oauthProvider && holdsCreatorRole(config.organization.roles, role),
  },
];

/** The organization area: its own nav, or the user's organizations when none is active. */
export function OrganizationLayout() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const list = useListOrganizations();
  const config = useAppConfig();
  const t = useT();
  // What the session still owes the organization's policy: nothing here acts until it is met (the
  // organization's own reads are refused meanwhile, so its name comes from the caller's list).
  const unmet = member.data?.organizationPolicy?.unmet ?? [];
  if (member.data && unmet.length > 0) {
    const name = list.data?.find((org) => org.id === member.data?.organizationId)?.name ?? active.data?.name ?? "";
    return <PolicyGuidance organization={name} code={unmet[0]!} />;
  }
  if (active.isPending || member.isPending) return <Loading />;
  if (!active.data) return <OrganizationChooser />;
  const role = member.data?.role;
  const items = sectionEntries
    .filter((entry) => !entry.when || entry.when(role, config))
    .map((entry) => ({ to: entry.to, label: t(entry.label) }));
  return <SettingsLayout title={active.data.name} items={items} />;
}

/**
 * The organization's policy refuses this session (get-active-member's `unmet`): say what to do, in
 * place of screens whose every request would be refused.
 */
function PolicyGuidance({ organization, code }: { organization: string; code: string }) {
  const t = useT();
  const navigate = useNavigate();
  usePageTitle("nav.organization");
  if (code === "TWO_FACTOR_REQUIRED_BY_ORGANIZATION") {
    return (
      <div className="settings">
        <h1>{organization}</h1>
        <Card title={t("guard.twoFactor.title")} testId="policy-guidance">
          <p data-testid="policy-guidance-code" data-code={code}>
            {t("guard.twoFactor.body", { organization })}
          </p>
          <Link to="/account/security" className="button primary" data-testid="policy-guidance-action">
            {t("guard.twoFactor.action")}
          </Link>
        </Card>
      </div>
    );
  }
  return (
    <div className="settings">
      <h1>{organization}</h1>
      <Card title={t("guard.other.title", { organization })} testId="policy-guidance">
        <p data-testid="policy-guidance-code" data-code={code}>
          {messageFor(code, t)}
        </p>
        <Button
          type="button"
          data-testid="policy-guidance-action"
          onClick={async () => {
            await authClient.signOut();
            navigate(`/sign-in?${new URLSearchParams({ redirectTo: "/organization" })}`);
          }}
        >
          {t("guard.signInAgain")}
        </Button>
      </Card>
    </div>
  );
}

/** With no active organization: the exported OrganizationList (open, leave, invitations, create). */
function OrganizationChooser() {
  const navigate = useNavigate();
  const { locale } = useI18n();
  usePageTitle("switcher.menu");
  return <OrganizationList localization={locale} navigate={(href) => navigate(href)} headingLevel={2} />;
}

/** One section of the exported OrganizationProfile, in the app's language and router. */
function ProfileSection({ section, titleKey }: { section: OrganizationSectionId; titleKey: MessageKey }) {
  const navigate = useNavigate();
  const { locale } = useI18n();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  usePageTitle(titleKey);
  return (
    <OrganizationProfile
      localization={locale}
      navigate={(href) => navigate(href)}
      section={section}
      navigation={false}
      headingLevel={2}
      notice={notice}
      onLeft={(message) => navigate("/", { state: { notice: message } })}
      onDeleted={(message) => navigate("/", { state: { notice: message } })}
    />
  );
}

export const OrganizationSettingsPage = () => <ProfileSection section="general" titleKey="org.settings.title" />;
export const MembersPage = () => <ProfileSection section="members" titleKey="members.title" />;
export const InvitationsPage = () => <ProfileSection section="invitations" titleKey="invitations.title" />;
export const TeamsPage = () => <ProfileSection section="teams" titleKey="teams.title" />;
