import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useActiveMember, useActiveOrganization, useListOrganizations, useSession } from "../../react/index.js";
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
import { can } from "../lib/permissions.js";
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
                  onClick={() => void authClient.organization.setActive({ organizationId: org.id })}
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
  return <SettingsLayout title={active.data.name} items={items} />;
}

export function OrganizationSettingsPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const navigate = useNavigate();
  const update = useSubmit(authClient.organization.update);
  const remove = useSubmit(authClient.organization.delete);
  const [saved, setSaved] = useState(false);
  const org = active.data;
  if (!org) return <Loading />;
  const role = member.data?.role;
  return (
    <>
      <Card title="Settings" testId="org-settings-card">
        {saved && <Notice testId="org-settings-saved">Settings saved.</Notice>}
        <OrganizationSettingsForm
          key={org.id}
          organization={org}
          readOnly={!can(role, "organization", "update")}
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
              if (window.confirm(`Delete ${org.name}?`) && (await remove.run({ organizationId: org.id })))
                navigate("/");
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
  const org = active.data;
  if (!org || !session.data) return <Loading />;
  const role = member.data?.role;
  return (
    <>
      <Card title="Members" testId="members-card">
        <MembersTable
          members={org.members}
          currentUserId={session.data.user.id}
          canUpdate={can(role, "member", "update")}
          canRemove={can(role, "member", "delete")}
          onRoleChange={(m, newRole) => void updateRole.run({ memberId: m.id, role: newRole, organizationId: org.id })}
          onRemove={(m) => void removeMember.run({ memberIdOrEmail: m.id, organizationId: org.id })}
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
            if (await leave.run({ organizationId: org.id })) navigate("/");
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
  const org = active.data;
  if (!org) return <Loading />;
  const role = member.data?.role;
  const mayInvite = can(role, "invitation", "create");
  return (
    <>
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
        {mayInvite ? (
          <InvitationsTable
            invitations={org.invitations ?? []}
            canCancel={can(role, "invitation", "cancel")}
            onCancel={(inv) => void cancel.run({ invitationId: inv.id })}
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
