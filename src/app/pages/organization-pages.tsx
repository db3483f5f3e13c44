import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { MemberWithUser as Member } from "../../contract/api-models.js";
import {
  CreateOrganization,
  useActiveMember,
  useActiveOrganization,
  useListOrganizations,
  useSession,
} from "../../react/index.js";
import { ActiveTeamPicker } from "../components/active-team.js";
import { useConfirm } from "../components/confirm-dialog.js";
import { InviteMemberForm, OrganizationSettingsForm } from "../components/organization-forms.js";
import { InvitationsTable, MembersTable } from "../components/organization-lists.js";
import { SettingsLayout } from "../components/shell.js";
import { Button, Card, FormError, Loading, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useI18n, usePageTitle, useT } from "../lib/i18n.js";
import { messageFor } from "../lib/messages.js";
import { can, isOwnerRole, roleLabel } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";
import { readsOrganizationTrail } from "./organization-audit-page.js";

/** The exported CreateOrganization, in the application's language and router. */
export function CreateOrganizationPage() {
  const navigate = useNavigate();
  const { locale } = useI18n();
  usePageTitle("org.create.title");
  return (
    <div className="component-page">
      <CreateOrganization localization={locale} navigate={(href) => navigate(href)} afterCreateHref="/organization" />
    </div>
  );
}

/** The organization area: its own nav, or a chooser when no organization is active. */
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
  if (!active.data) return <OrganizationChooser organizations={list.data ?? []} />;
  const role = member.data?.role;
  const items = [
    { to: "/organization", label: t("org.settings.title") },
    { to: "/organization/members", label: t("members.title") },
    { to: "/organization/invitations", label: t("invitations.title") },
    ...(config.organization.teams ? [{ to: "/organization/teams", label: t("teams.title") }] : []),
    // SSO connections: owners and admins only (the server refuses everyone else anyway).
    ...(config.sso && can(role, "organization", "update")
      ? [{ to: "/organization/connections", label: t("connections.title") }]
      : []),
    // SCIM is the owners' alone; admins may read the policy. Plain members see neither.
    ...(config.scim && isOwnerRole(role) ? [{ to: "/organization/directory", label: t("directory.title") }] : []),
    ...(can(role, "organization", "update") ? [{ to: "/organization/policy", label: t("policy.title") }] : []),
    ...(readsOrganizationTrail(config, role) ? [{ to: "/organization/audit", label: t("audit.trail.title") }] : []),
  ];
  const teamPicker = config.organization.teams ? (
    <ActiveTeamPicker
      key={active.data.id}
      organizationId={active.data.id}
      teamsVersion={(active.data.teams ?? []).map((team) => `${team.id}:${team.name}`).join(",")}
    />
  ) : null;
  return <SettingsLayout title={active.data.name} items={items} aside={teamPicker} />;
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

/** With no active organization: the caller's organizations to open, or a way to create one. */
function OrganizationChooser({ organizations }: { organizations: { id: string; name: string }[] }) {
  const t = useT();
  usePageTitle("switcher.menu");
  return (
    <Card title={t("switcher.menu")} testId="org-chooser">
      {organizations.length ? (
        <ul className="rows">
          {organizations.map((org) => (
            <li key={org.id} className="row">
              <strong>{org.name}</strong>
              <Button
                type="button"
                variant="secondary"
                onClick={async () => {
                  await authClient.organization.setActive({ organizationId: org.id });
                  await authClient.$store.activeOrganization.refetch();
                }}
              >
                {t("org.chooser.open")}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("org.chooser.none")}</p>
      )}
      <Link to="/organizations/new" className="button primary" data-testid="org-create-link">
        {t("org.create.title")}
      </Link>
    </Card>
  );
}

export function OrganizationSettingsPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const navigate = useNavigate();
  const update = useSubmit(authClient.organization.update);
  const remove = useSubmit(authClient.organization.delete);
  const { confirm, dialog } = useConfirm();
  const [saved, setSaved] = useState(false);
  const t = useT();
  usePageTitle("org.settings.title");
  const org = active.data;
  if (!org || member.isPending) return <Loading />;
  const role = member.data?.role;
  const readOnly = !can(role, "organization", "update");
  return (
    <>
      {dialog}
      <Card title={t("org.settings.title")} testId="org-settings-card">
        {saved && <Notice testId="org-settings-saved">{t("org.settings.saved")}</Notice>}
        {readOnly && (
          <p className="hint" data-testid="org-settings-read-only">
            {t("org.settings.readOnly")}
          </p>
        )}
        <OrganizationSettingsForm
          key={org.id}
          organization={org}
          readOnly={readOnly}
          pending={update.pending}
          error={update.error}
          onSubmit={async (data) => setSaved(Boolean(await update.run({ data, organizationId: org.id })))}
        />
      </Card>
      {can(role, "organization", "delete") && (
        <Card title={t("org.delete.title")}>
          <p>{t("org.delete.intro")}</p>
          <FormError error={remove.error} />
          <Button
            type="button"
            variant="danger"
            pending={remove.pending}
            data-testid="org-delete"
            onClick={async () => {
              const yes = await confirm({
                title: t("org.delete.confirm.title", { name: org.name }),
                body: t("org.delete.confirm.body", { name: org.name, count: org.members.length }),
                confirmLabel: t("org.delete.title"),
              });
              if (yes && (await remove.run({ organizationId: org.id })))
                navigate("/", { state: { notice: t("org.delete.done", { name: org.name }) } });
            }}
          >
            {t("org.delete.submit", { name: org.name })}
          </Button>
        </Card>
      )}
    </>
  );
}

export function MembersPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const session = useSession();
  const navigate = useNavigate();
  const updateRole = useSubmit(authClient.organization.updateMemberRole);
  const removeMember = useSubmit(authClient.organization.removeMember);
  const transfer = useSubmit(authClient.organization.transferOwnership);
  const leave = useSubmit(authClient.organization.leave);
  const { confirm, dialog } = useConfirm();
  // A removal's notice takes the focus (its button is gone); a role change's leaves it on the picker.
  const [notice, setNotice] = useState<{ text: string; takeFocus: boolean } | null>(null);
  const t = useT();
  usePageTitle("members.title");
  const org = active.data;
  if (!org || !session.data) return <Loading />;
  const nameOf = (m: Member) => m.user?.name || m.user?.email || m.userId;
  const changeRole = async (m: Member, role: string) => {
    setNotice(null);
    const yes = await confirm({
      title: t("members.role.confirm.title", { name: nameOf(m), role: roleLabel(role, t) }),
      body: t("members.role.confirm.body", {
        name: nameOf(m),
        from: roleLabel(m.role, t),
        role: roleLabel(role, t),
        organization: org.name,
      }),
      confirmLabel: t("admin.role.submit"),
    });
    if (yes && (await updateRole.run({ memberId: m.id, role, organizationId: org.id })))
      setNotice({ text: t("members.role.done", { name: nameOf(m), role: roleLabel(role, t) }), takeFocus: false });
  };
  const remove = async (m: Member) => {
    setNotice(null);
    const yes = await confirm({
      title: t("members.remove.confirm.title", { name: nameOf(m), organization: org.name }),
      body: t("members.remove.confirm.body", {
        name: nameOf(m),
        email: m.user?.email ?? m.userId,
        organization: org.name,
      }),
      confirmLabel: t("members.remove.confirm.accept"),
    });
    if (yes && (await removeMember.run({ memberIdOrEmail: m.id, organizationId: org.id })))
      setNotice({ text: t("members.remove.done", { name: nameOf(m), organization: org.name }), takeFocus: true });
  };
  const transferOwnership = async (m: Member) => {
    setNotice(null);
    const yes = await confirm({
      title: t("members.transfer.confirm.title", { name: nameOf(m), organization: org.name }),
      body: t("members.transfer.confirm.body", { name: nameOf(m), organization: org.name }),
      confirmLabel: t("members.transfer.submit"),
    });
    if (yes && (await transfer.run({ memberId: m.id, organizationId: org.id })))
      setNotice({ text: t("members.transfer.done", { name: nameOf(m) }), takeFocus: true });
  };
  return (
    <>
      {dialog}
      <Card title={t("members.title")} testId="members-card">
        {notice && (
          <Notice key={notice.text} testId="members-notice" takeFocus={notice.takeFocus}>
            {notice.text}
          </Notice>
        )}
        <MembersTable
          members={org.members}
          currentUserId={session.data.user.id}
          viewerRole={member.data?.role}
          onRoleChange={(m, role) => void changeRole(m, role)}
          onRemove={(m) => void remove(m)}
          onTransferOwnership={(m) => void transferOwnership(m)}
        />
        <FormError error={updateRole.error ?? removeMember.error ?? transfer.error} />
      </Card>
      <Card title={t("members.leave.title")}>
        <FormError error={leave.error} />
        <Button
          type="button"
          variant="danger"
          pending={leave.pending}
          data-testid="org-leave"
          onClick={async () => {
            const yes = await confirm({
              title: t("members.leave.confirm.title", { organization: org.name }),
              body: t("members.leave.confirm.body", { organization: org.name }),
              confirmLabel: t("members.leave.title"),
            });
            if (yes && (await leave.run({ organizationId: org.id })))
              navigate("/", { state: { notice: t("members.leave.done", { organization: org.name }) } });
          }}
        >
          {t("members.leave.submit", { organization: org.name })}
        </Button>
      </Card>
    </>
  );
}

export function InvitationsPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const invite = useSubmit(authClient.organization.inviteMember);
  const cancel = useSubmit(authClient.organization.cancelInvitation);
  const [sent, setSent] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();
  const t = useT();
  usePageTitle("invitations.title");
  const org = active.data;
  if (!org) return <Loading />;
  const role = member.data?.role;
  const mayInvite = can(role, "invitation", "create");
  return (
    <>
      {dialog}
      {mayInvite && (
        <Card title={t("invite.title")} testId="invite-card">
          {sent && <Notice testId="invite-sent">{sent}</Notice>}
          <InviteMemberForm
            teams={org.teams ?? []}
            canInviteOwner={(role ?? "").split(",").includes("owner")}
            pending={invite.pending}
            error={invite.error}
            onSubmit={async (values) => {
              const data = await invite.run({ ...values, organizationId: org.id });
              if (data) setSent(t("invite.sent", { email: data.email }));
            }}
          />
        </Card>
      )}
      <Card title={t("invitations.title")} testId="invitations-card">
        {cancelled && (
          <Notice key={cancelled} testId="invitation-cancelled" takeFocus>
            {cancelled}
          </Notice>
        )}
        {mayInvite ? (
          <InvitationsTable
            invitations={org.invitations ?? []}
            canCancel={can(role, "invitation", "cancel")}
            inviterName={(userId) => {
              const inviter = org.members.find((m) => m.userId === userId)?.user;
              return inviter ? inviter.name || inviter.email : undefined;
            }}
            onCancel={async (inv) => {
              const yes = await confirm({
                title: t("invitations.cancel.confirm.title", { email: inv.email }),
                body: t("invitations.cancel.confirm.body", { email: inv.email }),
                confirmLabel: t("invitations.cancel.confirm.accept"),
              });
              if (yes && (await cancel.run({ invitationId: inv.id })))
                setCancelled(t("invitations.cancel.done", { email: inv.email }));
            }}
            onResend={(inv) =>
              void invite
                .run({ email: inv.email, role: inv.role ?? "member", resend: true, organizationId: org.id })
                .then((data) => data && setSent(t("invite.resent", { email: data.email })))
            }
          />
        ) : (
          <p>{t("invitations.restricted")}</p>
        )}
        <FormError error={cancel.error} />
      </Card>
    </>
  );
}
