import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Team } from "../../contract/api-models.js";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { useConfirm } from "../components/confirm-dialog.js";
import { TeamNameForm } from "../components/organization-forms.js";
import { Button, Card, FormError, Loading, Notice, Select } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { usePageTitle, useT } from "../lib/i18n.js";
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
  const t = useT();
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
        <Loading label={t("teams.members.loading")} />
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
                  aria-label={t("teams.members.removeLabel", { name: nameOf(m.userId), team: team.name })}
                  onClick={async () => {
                    const yes = await confirm({
                      title: t("teams.members.remove.title", { name: nameOf(m.userId), team: team.name }),
                      body: t("teams.members.remove.body", { name: nameOf(m.userId), team: team.name }),
                      confirmLabel: t("teams.members.remove.accept"),
                    });
                    if (!yes) return;
                    await remove.run({ teamId: team.id, userId: m.userId });
                    await refresh();
                  }}
                >
                  {t("common.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && (
        <form
          className="inline-form"
          aria-label={t("teams.members.addForm", { team: team.name })}
          onSubmit={async (e) => {
            e.preventDefault();
            if (userId && (await add.run({ teamId: team.id, userId }))) await refresh();
          }}
        >
          <Select
            label={t("teams.members.addTo", { team: team.name })}
            testId="team-add-member"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
          >
            <option value="">{t("teams.members.choose")}</option>
            {orgMembers
              .filter((m) => !inTeam.has(m.userId))
              .map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.user?.name ?? m.userId}
                </option>
              ))}
          </Select>
          <Button variant="secondary" data-testid="team-add-member-submit">
            {t("teams.members.add")}
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
  const t = useT();
  usePageTitle("teams.title");
  const org = active.data;
  if (!org) return <Loading />;
  const role = member.data?.role;
  const removeTeam = async (team: Team) => {
    setNotice(null);
    const yes = await confirm({
      title: t("teams.remove.confirm.title", { team: team.name }),
      body: t("teams.remove.confirm.body", { team: team.name, organization: org.name }),
      confirmLabel: t("teams.remove.submit"),
    });
    if (yes && (await remove.run({ teamId: team.id, organizationId: org.id })))
      setNotice(t("teams.remove.done", { team: team.name }));
  };
  return (
    <>
      {dialog}
      {can(role, "team", "create") && (
        <Card title={t("teams.new")} testId="team-create-card">
          <TeamNameForm
            testId="team-create"
            submitLabel={t("teams.create")}
            pending={create.pending}
            error={create.error}
            onSubmit={(values) => create.run({ ...values, organizationId: org.id })}
          />
        </Card>
      )}
      <Card title={t("teams.title")} testId="teams-card">
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
                  submitLabel={t("teams.rename", { team: team.name })}
                  onSubmit={(values) => rename.run({ teamId: team.id, data: { ...values, organizationId: org.id } })}
                />
              )}
              <TeamMembers team={team} canManage={can(role, "member", "update")} />
              {can(role, "team", "delete") && (
                <Button
                  type="button"
                  variant="secondary"
                  data-testid="team-remove"
                  aria-label={t("teams.remove.label", { team: team.name })}
                  onClick={() => void removeTeam(team)}
                >
                  {t("teams.remove.submit")}
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
