import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Team } from "../../contract/api-models.js";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { useConfirm } from "../components/confirm-dialog.js";
import { TeamNameForm } from "../components/organization-forms.js";
import { Button, Card, FormError, Loading, Notice, Select } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { can } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

/** One team's members; owners and admins add and remove them. */
function TeamMembers({ team, canManage }: { team: Team; canManage: boolean }) {
  const queryClient = useQueryClient();
  const active = useActiveOrganization();
  const key = ["team-members", team.id];
  const members = useQuery({
    queryKey: key,
    queryFn: () => unwrap(authClient.organization.listTeamMembers({ query: { teamId: team.id } })),
  });
  const add = useSubmit(authClient.organization.addTeamMember);
  const remove = useSubmit(authClient.organization.removeTeamMember);
  const [userId, setUserId] = useState("");
  const { confirm, dialog } = useConfirm();
  const orgMembers = active.data?.members ?? [];
  const nameOf = (id: string) => orgMembers.find((m) => m.userId === id)?.user?.name ?? id;
  const inTeam = new Set(members.data?.map((m) => m.userId));
  // The active-team picker lists the viewer's own teams: ask it again too.
  const refresh = () =>
    Promise.all([key, ["user-teams"]].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  return (
    <div className="team-members">
      {dialog}
      {members.isPending ? (
        <Loading label="Loading team members" />
      ) : members.error ? (
        <FormError error={members.error} />
      ) : (
        <ul data-testid="team-members">
          {members.data.map((m) => (
            <li key={m.id}>
              {nameOf(m.userId)}{" "}
              {canManage && (
                <button
                  type="button"
                  className="link"
                  aria-label={`Remove ${nameOf(m.userId)} from ${team.name}`}
                  onClick={async () => {
                    const yes = await confirm({
                      title: `Remove ${nameOf(m.userId)} from ${team.name}?`,
                      body: `${nameOf(m.userId)} stays in the organization but leaves the team ${team.name}.`,
                      confirmLabel: "Remove from team",
                    });
                    if (!yes) return;
                    await remove.run({ teamId: team.id, userId: m.userId });
                    await refresh();
                  }}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && (
        <form
          className="inline-form"
          aria-label={`Add a member to ${team.name}`}
          onSubmit={async (e) => {
            e.preventDefault();
            if (userId && (await add.run({ teamId: team.id, userId }))) await refresh();
          }}
        >
          <Select
            label={`Add to ${team.name}`}
            testId="team-add-member"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
          >
            <option value="">Choose a member</option>
            {orgMembers
              .filter((m) => !inTeam.has(m.userId))
              .map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.user?.name ?? m.userId}
                </option>
              ))}
          </Select>
          <Button variant="secondary" data-testid="team-add-member-submit">
            Add
          </Button>
        </form>
      )}
      <FormError error={add.error ?? remove.error} />
    </div>
  );
}

/** Teams of the active organization: create, rename, remove, and who is in each. */
export function TeamsPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const create = useSubmit(authClient.organization.createTeam);
  const rename = useSubmit(authClient.organization.updateTeam);
  const remove = useSubmit(authClient.organization.removeTeam);
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  const org = active.data;
  if (!org) return <Loading />;
  const role = member.data?.role;
  const removeTeam = async (team: Team) => {
    setNotice(null);
    const yes = await confirm({
      title: `Remove the team ${team.name}?`,
      body: `The team ${team.name} and its member list go; its members stay in ${org.name}.`,
      confirmLabel: "Remove team",
    });
    if (yes && (await remove.run({ teamId: team.id, organizationId: org.id })))
      setNotice(`The team ${team.name} was removed.`);
  };
  return (
    <>
      {dialog}
      {can(role, "team", "create") && (
        <Card title="New team" testId="team-create-card">
          <TeamNameForm
            testId="team-create"
            submitLabel="Create team"
            pending={create.pending}
            error={create.error}
            onSubmit={(values) => create.run({ ...values, organizationId: org.id })}
          />
        </Card>
      )}
      <Card title="Teams" testId="teams-card">
        {notice && (
          <Notice key={notice} testId="teams-notice" takeFocus>
            {notice}
          </Notice>
        )}
        <ul className="rows" data-testid="teams-list">
          {(org.teams ?? []).map((team) => (
            <li key={team.id} className="row column" data-testid="team-row">
              <h3>{team.name}</h3>
              {can(role, "team", "update") && (
                <TeamNameForm
                  testId="team-rename"
                  initial={team.name}
                  submitLabel={`Rename ${team.name}`}
                  onSubmit={(values) => rename.run({ teamId: team.id, data: { ...values, organizationId: org.id } })}
                />
              )}
              <TeamMembers team={team} canManage={can(role, "member", "update")} />
              {can(role, "team", "delete") && (
                <Button
                  type="button"
                  variant="secondary"
                  data-testid="team-remove"
                  aria-label={`Remove team ${team.name}`}
                  onClick={() => void removeTeam(team)}
                >
                  Remove team
                </Button>
              )}
            </li>
          ))}
        </ul>
        <FormError error={rename.error ?? remove.error} />
      </Card>
    </>
  );
}
