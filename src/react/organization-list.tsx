import { useMemo, useState } from "react";
import { Avatar } from "./avatar.js";
import { useConfirm } from "./confirm.js";
import { ComponentLink, ComponentRoot, ErrorMessage, Notice } from "./form-parts.js";
import { componentTranslator } from "./localization.js";
import { browserNavigate } from "./navigate.js";
import { type OrganizationComponentProps, RowButton } from "./organization-parts.js";
import { useRoles } from "./organization-roles.js";
import { useActiveOrganization, useAuthClient, useListOrganizations, useSession } from "./provider.js";
import { refreshUserInvitations, useUserInvitations } from "./queries.js";
import { useCall } from "./use-call.js";

export interface OrganizationListProps extends OrganizationComponentProps {
  /** Where "Create an organization" goes; empty hides it. */
  createHref?: string;
  /** Where a pending invitation is answered. */
  invitationHref?: (invitationId: string) => string;
  /** Called once the chosen organization is active (default: stay). */
  afterSelect?: (organizationId: string) => void;
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

/**
 * The user's organizations: switch to one, leave one (the only owner of the active one is told to
 * hand it on first), the pending invitations, and a way to create one.
 *
 * @example
 * <OrganizationList navigate={navigate} createHref="/organizations/new" afterSelect={() => navigate("/organization")} />
 */
export function OrganizationList({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  createHref = "/organizations/new",
  invitationHref = (id) => `/accept-invitation/${id}`,
  afterSelect,
  headingLevel,
}: OrganizationListProps) {
  const { isOnlyOwner } = useRoles();
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const organizations = useListOrganizations();
  const active = useActiveOrganization().data;
  const userId = useSession().data?.user.id ?? "";
  const invitations = useUserInvitations();
  const choose = useCall(client.organization.setActive);
  const leave = useCall(client.organization.leave);
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  // Known only for the active organization (its members come with it); the server refuses the rest.
  const onlyOwnerOf = active && isOnlyOwner(active.members, userId) ? active.id : null;
  const list = organizations.data ?? [];
  const Subheading = headingLevel === 2 ? "h3" : "h2";
  return (
    <ComponentRoot
      t={t}
      navigate={navigate}
      appearance={appearance}
      title={t("orgList.title")}
      testId="gh-organization-list"
      headingLevel={headingLevel}
      className="gh-wide"
    >
      {dialog}
      {notice && (
        <Notice key={notice} testId="org-list-notice" takeFocus>
          {notice}
        </Notice>
      )}
      {organizations.isPending ? (
        <p className="gh-hint">{t("common.loading")}</p>
      ) : list.length === 0 ? (
        <p data-testid="org-list-none">{t("org.chooser.none")}</p>
      ) : (
        <ul className="gh-list" data-testid="org-list">
          {list.map((org) => {
            const isActive = org.id === active?.id;
            const onlyOwner = org.id === onlyOwnerOf;
            return (
              <li key={org.id} data-testid="org-list-row">
                <Avatar name={org.name} image={org.logo} size="sm" />
                <strong className="gh-grow">
                  {org.name} {isActive && <span className="gh-tag">{t("orgList.active")}</span>}
                  {onlyOwner && (
                    <span className="gh-hint" data-testid="org-list-only-owner">
                      {" "}
                      {t("orgList.onlyOwner")}
                    </span>
                  )}
                </strong>
                {!isActive && (
                  <RowButton
                    variant="primary"
                    data-testid="org-list-open"
                    aria-label={t("orgList.open", { name: org.name })}
                    disabled={choose.pending}
                    onClick={async () => {
                      if (!(await choose.run({ organizationId: org.id }))) return;
                      await client.$store.activeOrganization.refetch();
                      await client.$store.activeMember.refetch();
                      afterSelect?.(org.id);
                    }}
                  >
                    {t("org.chooser.open")}
                  </RowButton>
                )}
                {/* The only owner cannot leave (the server says so too): the reason instead of the button. */}
                {onlyOwner ? (
                  <span className="gh-hint" data-testid="org-list-leave-refused">
                    {t("members.leave.onlyOwner")}
                  </span>
                ) : (
                  <RowButton
                    data-testid="org-list-leave"
                    aria-label={t("orgList.leave", { name: org.name })}
                    onClick={async () => {
                      setNotice(null);
                      const yes = await confirm({
                        title: t("members.leave.confirm.title", { organization: org.name }),
                        body: t("members.leave.confirm.body", { organization: org.name }),
                        confirmLabel: t("members.leave.title"),
                      });
                      if (yes && (await leave.run({ organizationId: org.id }))) {
                        await client.$store.listOrganizations.refetch();
                        refreshUserInvitations();
                        setNotice(t("members.leave.done", { organization: org.name }));
                      }
                    }}
                  >
                    {t("members.leave.title")}
                  </RowButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ErrorMessage error={choose.error ?? leave.error} />
      {invitations.length > 0 && (
        <div className="gh-section">
          <Subheading className="gh-title">{t("orgList.invitations")}</Subheading>
          <ul className="gh-list" data-testid="org-list-invitations">
            {invitations.map((invitation) => (
              <li key={invitation.id} data-testid="org-list-invitation">
                <span className="gh-grow">
                  {t("orgList.invitation", { organization: invitation.organizationName })}
                </span>
                <ComponentLink href={invitationHref(invitation.id)} testId="org-list-invitation-open">
                  {t("orgList.invitation.view")}
                </ComponentLink>
              </li>
            ))}
          </ul>
        </div>
      )}
      {createHref && (
        <p>
          <ComponentLink href={createHref} testId="org-create-link">
            {t("org.create.title")}
          </ComponentLink>
        </p>
      )}
    </ComponentRoot>
  );
}
