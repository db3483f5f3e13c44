import { Avatar } from "./avatar.js";
import { MenuButton, type MenuItem } from "./menu-button.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { useActiveOrganization, useAuthClient, useListOrganizations } from "./provider.js";
import { useUserInvitations } from "./queries.js";

/** Every word the component shows, in one place (a message catalogue can replace it). */
export const organizationSwitcherLabels = {
  menu: "Organizations",
  prefix: "Organization: ",
  none: "Choose an organization",
  create: "Create organization",
  invitation: (organization: string) => `Join ${organization} (invitation)`,
  /** Read after the badge's number. */
  pendingInvitations: (pending: number) => ` pending invitation${pending === 1 ? "" : "s"}`,
};

export interface OrganizationSwitcherProps {
  /** Where "Create organization" goes; without it the entry is not shown. */
  createHref?: string;
  /** Where a pending invitation is answered. */
  invitationHref?: (invitationId: string) => string;
  /** Called once the chosen organization is active (e.g. to open its page). */
  afterSelect?: (organizationId: string) => void;
  navigate?: Navigate;
  labels?: Partial<typeof organizationSwitcherLabels>;
}

/**
 * The active organization (logo or initials, name) as a menu button: the user's organizations,
 * their pending invitations (with a count badge on the button) and "Create organization".
 * An organization becomes active only when chosen, never on an arrow key.
 *
 * @example
 * <OrganizationSwitcher navigate={navigate} afterSelect={() => navigate("/organization")} />
 */
export function OrganizationSwitcher({
  createHref = "/organizations/new",
  invitationHref = (id) => `/accept-invitation/${id}`,
  afterSelect,
  navigate = browserNavigate,
  labels: overrides,
}: OrganizationSwitcherProps) {
  const labels = { ...organizationSwitcherLabels, ...overrides };
  const client = useAuthClient();
  const organizations = useListOrganizations().data ?? [];
  const active = useActiveOrganization().data;
  const invitations = useUserInvitations();
  const choose = async (organizationId: string) => {
    const { error } = await client.organization.setActive({ organizationId });
    if (error) return;
    await client.$store.activeOrganization.refetch();
    afterSelect?.(organizationId);
  };
  const items: MenuItem[] = [
    ...organizations.map((org) => ({
      id: org.id,
      checked: org.id === active?.id,
      testId: "org-switcher-item",
      label: (
        <>
          <Avatar name={org.name} image={org.logo} size="sm" />
          <span>{org.name}</span>
        </>
      ),
      onSelect: () => void choose(org.id),
    })),
    ...invitations.map((invitation) => ({
      id: `invitation-${invitation.id}`,
      testId: "org-switcher-invitation",
      href: invitationHref(invitation.id),
      label: labels.invitation(invitation.organizationName),
      onSelect: () => navigate(invitationHref(invitation.id)),
    })),
    ...(createHref
      ? [
          {
            id: "create",
            testId: "org-switcher-create",
            href: createHref,
            label: labels.create,
            onSelect: () => navigate(createHref),
          },
        ]
      : []),
  ];
  return (
    <MenuButton
      className="gh-organization-switcher"
      testId="org-switcher"
      menuLabel={labels.menu}
      buttonContent={
        <>
          <span className="gh-visually-hidden">{labels.prefix}</span>
          {active && <Avatar name={active.name} image={active.logo} size="sm" />}
          <span className="gh-switcher-name" data-testid="org-switcher-active">
            {active?.name ?? labels.none}
          </span>
          {invitations.length > 0 && (
            <span className="gh-badge" data-testid="org-switcher-badge">
              {invitations.length}
              <span className="gh-visually-hidden">{labels.pendingInvitations(invitations.length)}</span>
            </span>
          )}
        </>
      }
      items={items}
    />
  );
}
