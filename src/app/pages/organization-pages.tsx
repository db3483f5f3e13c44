import { useLocation, useNavigate } from "react-router";
import type { MessageKey } from "../../i18n/index.js";
import {
  CreateOrganization,
  OrganizationList,
  OrganizationProfile,
  type OrganizationSectionId,
  useActiveMember,
  useActiveOrganization,
} from "../../react/index.js";
import { SettingsLayout } from "../components/shell.js";
import { Loading } from "../components/ui.js";
import { type AppConfig, useAppConfig } from "../lib/config.js";
import { useI18n, usePageTitle, useT } from "../lib/i18n.js";
import { can } from "../lib/permissions.js";

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
  { to: "/organization/invitations", label: "invitations.title", when: (role) => can(role, "invitation", "create") },
  { to: "/organization/teams", label: "teams.title", when: (_, config) => config.organization.teams },
];

/** The organization area: its own nav, or the user's organizations when none is active. */
export function OrganizationLayout() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const config = useAppConfig();
  const t = useT();
  if (active.isPending) return <Loading />;
  if (!active.data) return <OrganizationChooser />;
  const role = member.data?.role;
  const items = sectionEntries
    .filter((entry) => !entry.when || entry.when(role, config))
    .map((entry) => ({ to: entry.to, label: t(entry.label) }));
  return <SettingsLayout title={active.data.name} items={items} />;
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
