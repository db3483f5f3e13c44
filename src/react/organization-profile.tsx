import { type ReactNode, useMemo, useState } from "react";
import type { FullOrganization } from "../contract/api-models.js";
import type { MessageKey } from "../i18n/index.js";
import { ComponentLink, ComponentRoot, Notice } from "./form-parts.js";
import { componentTranslator } from "./localization.js";
import { browserNavigate } from "./navigate.js";
import { OrganizationInvitationsSection } from "./organization-invitations.js";
import { OrganizationMembersSection } from "./organization-members.js";
import type { OrganizationComponentProps } from "./organization-parts.js";
import { OrganizationSettingsSection } from "./organization-settings.js";
import { OrganizationTeamsSection } from "./organization-teams.js";
import { useActiveMember, useActiveOrganization, useSession } from "./provider.js";
import { useServerOptions } from "./server-options.js";

/** The built-in sections; an application adds its own with `extraSections`. */
export type OrganizationSectionId = "general" | "members" | "invitations" | "teams";

/** What a section is given: the active organization and the viewer's role in it. */
export interface OrganizationSectionContext {
  organization: FullOrganization;
  role: string | null | undefined;
}

/** An application's own section: shown to the roles `visible` allows, drawn by `render`. */
export interface OrganizationSection {
  id: string;
  label: string;
  visible?: (role: string | null | undefined) => boolean;
  render: (context: OrganizationSectionContext) => ReactNode;
}

export interface OrganizationProfileProps extends OrganizationComponentProps {
  /** The section shown (controlled); without it the component keeps its own, starting at "general". */
  section?: string;
  /** With it, the section links are plain links there (the app's routes); else they switch in place. */
  sectionHref?: (section: string) => string;
  extraSections?: OrganizationSection[];
  /** false: no section links (the application draws its own navigation) and the section's name is the heading. */
  navigation?: boolean;
  /** A message to show above the section (e.g. "Acme is ready" after creating it). */
  notice?: string;
  /** Where to go after leaving or deleting the organization (default "/"), with the message to show there. */
  afterLeaveHref?: string;
  onLeft?: (message: string) => void;
  onDeleted?: (message: string) => void;
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

const builtIn: { id: OrganizationSectionId; label: MessageKey; testId: string }[] = [
  { id: "general", label: "org.settings.title", testId: "org-settings-card" },
  { id: "members", label: "members.title", testId: "members-card" },
  { id: "invitations", label: "invitations.title", testId: "invitations-section" },
  { id: "teams", label: "teams.title", testId: "teams-card" },
];

/**
 * The active organization's settings, members, invitations and teams, each control shown only to
 * roles the server would allow. Sections switch in place, or follow `sectionHref`; an application
 * adds its own sections, or draws its own navigation (`navigation={false}`) and picks `section`.
 *
 * @example
 * <OrganizationProfile
 *   navigate={navigate}
 *   section={section}
 *   sectionHref={(id) => `/organization/${id}`}
 *   extraSections={[{ id: "billing", label: "Billing", render: ({ organization }) => <Billing id={organization.id} /> }]}
 * />
 */
export function OrganizationProfile({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  section: controlled,
  sectionHref,
  extraSections = [],
  navigation = true,
  notice,
  afterLeaveHref = "/",
  onLeft,
  onDeleted,
  headingLevel = 1,
}: OrganizationProfileProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const active = useActiveOrganization();
  const member = useActiveMember();
  const session = useSession();
  const options = useServerOptions();
  const [own, setOwn] = useState<string>("general");
  const org = active.data;
  const role = member.data?.role;
  const teamsOn = options?.organization.teams ?? Boolean(org?.teams?.length);
  const sections = [
    ...builtIn
      .filter((s) => s.id !== "teams" || teamsOn)
      .map((s) => ({ id: s.id as string, label: t(s.label), testId: s.testId })),
    ...extraSections
      .filter((s) => !s.visible || s.visible(role))
      .map((s) => ({ id: s.id, label: s.label, testId: `${s.id}-section` })),
  ];
  const current = sections.find((s) => s.id === (controlled ?? own)) ?? sections[0]!;
  const loading = active.isPending || member.isPending || !session.data;
  const title = navigation ? (org?.name ?? t("common.loading")) : current.label;
  const left = (message: string) => (onLeft ? onLeft(message) : navigate(afterLeaveHref));
  const deleted = (message: string) => (onDeleted ? onDeleted(message) : navigate(afterLeaveHref));

  let body: ReactNode;
  if (loading) body = <p className="gh-hint">{t("common.loading")}</p>;
  else if (!org) body = <p data-testid="org-profile-none">{t("org.chooser.none")}</p>;
  else if (current.id === "general")
    body = (
      <OrganizationSettingsSection
        key={org.id}
        organization={org}
        role={role}
        onDeleted={(name) => deleted(t("org.delete.done", { name }))}
      />
    );
  else if (current.id === "members")
    body = (
      <OrganizationMembersSection
        organization={org}
        role={role}
        userId={session.data!.user.id}
        onLeft={(name) => left(t("members.leave.done", { organization: name }))}
      />
    );
  else if (current.id === "invitations")
    body = <OrganizationInvitationsSection organization={org} role={role} localization={localization} />;
  else if (current.id === "teams") body = <OrganizationTeamsSection key={org.id} organization={org} role={role} />;
  else body = extraSections.find((s) => s.id === current.id)?.render({ organization: org, role });

  return (
    <ComponentRoot
      t={t}
      navigate={navigate}
      appearance={appearance}
      title={title}
      testId={navigation ? "gh-organization-profile" : current.testId}
      headingLevel={headingLevel}
      className="gh-wide"
    >
      {navigation && org && (
        <nav className="gh-nav" aria-label={t("orgProfile.sections")}>
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                {sectionHref ? (
                  <ComponentLink href={sectionHref(s.id)} testId={`org-section-${s.id}`} current={s.id === current.id}>
                    {s.label}
                  </ComponentLink>
                ) : (
                  <button
                    type="button"
                    className="gh-button gh-small gh-text"
                    aria-current={s.id === current.id ? "page" : undefined}
                    data-testid={`org-section-${s.id}`}
                    onClick={() => setOwn(s.id)}
                  >
                    {s.label}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </nav>
      )}
      {navigation && org && <h2 className="gh-visually-hidden">{current.label}</h2>}
      {notice && <Notice testId="org-profile-notice">{notice}</Notice>}
      {body}
    </ComponentRoot>
  );
}
