import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { MemberWithUser as Member } from "../../contract/api-models.js";
import { useActiveMember, useActiveOrganization, useListOrganizations, useSession } from "../../react/index.js";
import { ActiveTeamPicker } from "../components/active-team.js";
import { useConfirm } from "../components/confirm-dialog.js";
import {
  CreateOrganizationForm,
  InviteMemberForm,
  OrganizationSettingsForm,
  type SlugStatus,
} from "../components/organization-forms.js";
import { InvitationsTable, MembersTable } from "../components/organization-lists.js";
import { SettingsLayout } from "../components/shell.js";
import { Button, Card, FormError, Loading, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { can, roleLabel } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

export function CreateOrganizationPage() {
  const navigate = useNavigate();
  const create = useSubmit(authClient.organization.create);
  const [slugStatus, setSlugStatus] = useState<SlugStatus>("unknown");
  const checkSlug = async (slug: string) => {
    setSlugStatus("checking");
    const { data, error } = await authClient.organization.checkSlug({ slug });
    setSlugStatus(data?.status ? "free" : error?.code === "ORGANIZATION_SLUG_ALREADY_TAKEN" ? "taken" : "unknown");
  };
  return (
    <Card title="Create an organization" testId="org-create-card">
      <CreateOrganizationForm
        slugStatus={slugStatus}
        onCheckSlug={(slug) => void checkSlug(slug)}
        pending={create.pending}
        error={create.error}
        onSubmit={async (values) => {
          if (!(await create.run(values))) return;
          await authClient.$store.activeOrganization.refetch();
          navigate("/organization");
        }}
      />
    </Card>
  );
}

/** The organization area: its own nav, or a chooser when no organization is active. */
export function OrganizationLayout() {
  const active = useActiveOrganization();
  const list = useListOrganizations();
  const config = useAppConfig();
  if (active.isPending) return <Loading />;
  if (!active.data) {
    return (
      <Card title="Organizations" testId="org-chooser">
        {list.data?.length ? (
          <ul className="rows">
            {list.data.map((org) => (
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
                  Open
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p>You are not in an organization yet.</p>
        )}
        <Link to="/organizations/new" className="button primary" data-testid="org-create-link">
          Create an organization
        </Link>
      </Card>
    );
  }
  const items = [
    { to: "/organization", label: "Settings" },
    { to: "/organization/members", label: "Members" },
    { to: "/organization/invitations", label: "Invitations" },
    ...(config.organization.teams ? [{ to: "/organization/teams", label: "Teams" }] : []),
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

export function OrganizationSettingsPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const navigate = useNavigate();
  const update = useSubmit(authClient.organization.update);
  const remove = useSubmit(authClient.organization.delete);
  const { confirm, dialog } = useConfirm();
  const [saved, setSaved] = useState(false);
  const org = active.data;
  if (!org || member.isPending) return <Loading />;
  const role = member.data?.role;
  const readOnly = !can(role, "organization", "update");
  return (
    <>
      {dialog}
      <Card title="Settings" testId="org-settings-card">
        {saved && <Notice testId="org-settings-saved">Settings saved.</Notice>}
        {readOnly && (
          <p className="hint" data-testid="org-settings-read-only">
            Only owners and admins change these settings.
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
        <Card title="Delete organization">
          <p>Members, invitations and teams go with it.</p>
          <FormError error={remove.error} />
          <Button
            type="button"
            variant="danger"
            pending={remove.pending}
            data-testid="org-delete"
            onClick={async () => {
              const yes = await confirm({
                title: `Delete ${org.name}?`,
                body: `${org.name}, its ${org.members.length} membership(s), invitations and teams are deleted. This cannot be undone.`,
                confirmLabel: "Delete organization",
              });
              if (yes && (await remove.run({ organizationId: org.id })))
                navigate("/", { state: { notice: `${org.name} was deleted.` } });
            }}
          >
            Delete {org.name}
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
  const leave = useSubmit(authClient.organization.leave);
  const { confirm, dialog } = useConfirm();
  // A removal's notice takes the focus (its button is gone); a role change's leaves it on the picker.
  const [notice, setNotice] = useState<{ text: string; takeFocus: boolean } | null>(null);
  const org = active.data;
  if (!org || !session.data) return <Loading />;
  const nameOf = (m: Member) => m.user?.name || m.user?.email || m.userId;
  const changeRole = async (m: Member, role: string) => {
    setNotice(null);
    const yes = await confirm({
      title: `Make ${nameOf(m)} ${roleLabel(role)}?`,
      body: `${nameOf(m)} changes from ${roleLabel(m.role)} to ${roleLabel(role)} in ${org.name}, with what that role may do.`,
      confirmLabel: "Change role",
    });
    if (yes && (await updateRole.run({ memberId: m.id, role, organizationId: org.id })))
      setNotice({ text: `${nameOf(m)} is now ${roleLabel(role)}.`, takeFocus: false });
  };
  const remove = async (m: Member) => {
    setNotice(null);
    const yes = await confirm({
      title: `Remove ${nameOf(m)} from ${org.name}?`,
      body: `${nameOf(m)} (${m.user?.email ?? m.userId}) loses access to ${org.name} and its teams at once. They can only come back with a new invitation.`,
      confirmLabel: "Remove member",
    });
    if (yes && (await removeMember.run({ memberIdOrEmail: m.id, organizationId: org.id })))
      setNotice({ text: `${nameOf(m)} was removed from ${org.name}.`, takeFocus: true });
  };
  return (
    <>
      {dialog}
      <Card title="Members" testId="members-card">
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
        />
        <FormError error={updateRole.error ?? removeMember.error} />
      </Card>
      <Card title="Leave organization">
        <FormError error={leave.error} />
        <Button
          type="button"
          variant="danger"
          pending={leave.pending}
          data-testid="org-leave"
          onClick={async () => {
            const yes = await confirm({
              title: `Leave ${org.name}?`,
              body: `You lose access to ${org.name}, its members and its teams. Only a new invitation lets you back in.`,
              confirmLabel: "Leave organization",
            });
            if (yes && (await leave.run({ organizationId: org.id })))
              navigate("/", { state: { notice: `You left ${org.name}.` } });
          }}
        >
          Leave {org.name}
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
  const org = active.data;
  if (!org) return <Loading />;
  const role = member.data?.role;
  const mayInvite = can(role, "invitation", "create");
  return (
    <>
      {dialog}
      {mayInvite && (
        <Card title="Invite a member" testId="invite-card">
          {sent && <Notice testId="invite-sent">{sent}</Notice>}
          <InviteMemberForm
            teams={org.teams ?? []}
            canInviteOwner={(role ?? "").split(",").includes("owner")}
            pending={invite.pending}
            error={invite.error}
            onSubmit={async (values) => {
              const data = await invite.run({ ...values, organizationId: org.id });
              if (data) setSent(`Invitation sent to ${data.email}.`);
            }}
          />
        </Card>
      )}
      <Card title="Invitations" testId="invitations-card">
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
                title: `Cancel the invitation to ${inv.email}?`,
                body: `The link mailed to ${inv.email} stops working.`,
                confirmLabel: "Cancel invitation",
              });
              if (yes && (await cancel.run({ invitationId: inv.id })))
                setCancelled(`The invitation to ${inv.email} is cancelled.`);
            }}
            onResend={(inv) =>
              void invite
                .run({ email: inv.email, role: inv.role ?? "member", resend: true, organizationId: org.id })
                .then((data) => data && setSent(`Invitation sent again to ${data.email}.`))
            }
          />
        ) : (
          <p>Only owners and admins see the invitations.</p>
        )}
        <FormError error={cancel.error} />
      </Card>
    </>
  );
}
