import { type FormEvent, useEffect, useState } from "react";
import type { FullOrganization, Team, TeamMember } from "../contract/api-models.js";
import { useConfirm } from "./confirm.js";
import { Button, ErrorMessage, Field, type FieldMessage, Form, Notice, useFrame } from "./form-parts.js";
import { RowButton, SelectField } from "./organization-parts.js";
import { useRoles } from "./organization-roles.js";
import { useAuthClient, useSession } from "./provider.js";
import { useCall } from "./use-call.js";

/** Runs `load` again whenever `key` changes; the last answer wins. */
function useLoaded<T>(key: string, load: () => Promise<{ data: T | null; error: unknown }>) {
  const [data, setData] = useState<T | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when to ask again.
  useEffect(() => {
    let current = true;
    void load().then(({ data }) => current && setData(data ?? null));
    return () => {
      current = false;
    };
  }, [key]);
  return data;
}

/**
 * The session's active team, when the user is in two teams or more here (with one there is nothing
 * to choose). A select plus a button: arrow keys on a closed select fire changes.
 *
 * @example
 * // `version` changes when the organization's teams do, so the list is read again
 * const teams = organization.teams ?? [];
 * <ActiveTeamSelect organizationId={organization.id} version={teams.map((team) => team.id).join(",")} />
 */
export function ActiveTeamSelect({ organizationId, version }: { organizationId: string; version: string }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const session = useSession();
  const teams = useLoaded<Team[]>(`${organizationId} ${version}`, () =>
    client.organization.listUserTeams({ query: { organizationId } }),
  );
  const set = useCall(client.organization.setActiveTeam);
  const [choice, setChoice] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!teams || teams.length < 2) return null;
  const activeTeamId = session.data?.session.activeTeamId ?? "";
  const current = teams.some((team) => team.id === activeTeamId) ? activeTeamId : "";
  const selected = choice ?? current;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    set.setError(null);
    // The answer is the team, or null when none is active now: null alone does not mean a refusal.
    const { data: team, error } = await client.organization.setActiveTeam({ teamId: selected || null });
    if (error) return set.setError(error);
    await session.refetch();
    setChoice(null);
    setNotice(team ? t("details.team.switched", { team: team.name }) : t("details.team.cleared"));
  };
  return (
    <form className="gh-inline" onSubmit={(event) => void submit(event)} data-testid="active-team">
      <SelectField
        label={t("details.team.label")}
        testId="active-team-select"
        value={selected}
        aria-describedby={undefined}
        onChange={(event) => {
          setNotice(null);
          setChoice(event.target.value);
        }}
      >
        <option value="">{t("details.team.none")}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </SelectField>
      {/* Never disabled: the focus stays on it after switching, for the next switch. */}
      <button type="submit" className="gh-button gh-small gh-secondary" data-testid="active-team-submit">
        {t("details.team.switch")}
      </button>
      {notice && <Notice testId="active-team-notice">{notice}</Notice>}
      <ErrorMessage error={set.error} />
    </form>
  );
}

/** One team in detail: rename, who is in it (add, remove), remove the team. */
function TeamDetail({
  team,
  organization: org,
  role,
  onBack,
  onRemoved,
}: {
  team: Team;
  organization: FullOrganization;
  role: string | null | undefined;
  onBack: () => void;
  onRemoved: (name: string) => void;
}) {
  const { can } = useRoles();
  const { t } = useFrame();
  const client = useAuthClient();
  const rename = useCall(client.organization.updateTeam);
  const removeTeam = useCall(client.organization.removeTeam);
  const add = useCall(client.organization.addTeamMember);
  const removeMember = useCall(client.organization.removeTeamMember);
  const { confirm, dialog } = useConfirm();
  const [version, setVersion] = useState(0);
  const [name, setName] = useState(team.name);
  const [nameError, setNameError] = useState<FieldMessage | undefined>();
  const [userId, setUserId] = useState("");
  const members = useLoaded<TeamMember[]>(`${team.id} ${version}`, () =>
    client.organization.listTeamMembers({ query: { teamId: team.id } }),
  );
  const canManage = can(role, "member", "update");
  const nameOf = (id: string) => {
    const user = org.members.find((m) => m.userId === id)?.user;
    return user?.name || user?.email || id;
  };
  const inTeam = new Set(members?.map((m) => m.userId));
  return (
    <div className="gh-section" data-testid="team-detail">
      {dialog}
      <RowButton variant="text" data-testid="team-back" onClick={onBack}>
        {t("teams.back")}
      </RowButton>
      <h3 data-testid="team-detail-name">{team.name}</h3>
      {can(role, "team", "update") && (
        <Form
          label={t("teams.rename", { team: team.name })}
          error={rename.error}
          onSubmit={async () => {
            if (!name.trim()) return setNameError({ key: "validation.teamName" });
            setNameError(undefined);
            await rename.run({ teamId: team.id, data: { name: name.trim(), organizationId: org.id } });
          }}
        >
          <Field
            label={t("teams.name")}
            testId="team-rename-name"
            value={name}
            error={nameError}
            onChange={(e) => setName(e.target.value)}
          />
          <ErrorMessage error={rename.error} />
          <Button variant="secondary" pending={rename.pending} data-testid="team-rename-submit">
            {t("teams.rename", { team: team.name })}
          </Button>
        </Form>
      )}
      {members === null ? (
        <p className="gh-hint">{t("teams.members.loading")}</p>
      ) : (
        <ul className="gh-list" data-testid="team-members">
          {members.map((m) => (
            <li key={m.id}>
              <span className="gh-grow">{nameOf(m.userId)}</span>
              {canManage && (
                <RowButton
                  aria-label={t("teams.members.removeLabel", { name: nameOf(m.userId), team: team.name })}
                  data-testid="team-member-remove"
                  onClick={async () => {
                    const yes = await confirm({
                      title: t("teams.members.remove.title", { name: nameOf(m.userId), team: team.name }),
                      body: t("teams.members.remove.body", { name: nameOf(m.userId), team: team.name }),
                      confirmLabel: t("teams.members.remove.accept"),
                    });
                    if (yes && (await removeMember.run({ teamId: team.id, userId: m.userId })))
                      setVersion((v) => v + 1);
                  }}
                >
                  {t("common.remove")}
                </RowButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && (
        <form
          className="gh-inline"
          aria-label={t("teams.members.addForm", { team: team.name })}
          onSubmit={async (e) => {
            e.preventDefault();
            if (userId && (await add.run({ teamId: team.id, userId }))) {
              setUserId("");
              setVersion((v) => v + 1);
            }
          }}
        >
          <SelectField
            label={t("teams.members.addTo", { team: team.name })}
            testId="team-add-member"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
          >
            <option value="">{t("teams.members.choose")}</option>
            {org.members
              .filter((m) => !inTeam.has(m.userId))
              .map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.user?.name || m.user?.email || m.userId}
                </option>
              ))}
          </SelectField>
          <button type="submit" className="gh-button gh-small gh-secondary" data-testid="team-add-member-submit">
            {t("teams.members.add")}
          </button>
        </form>
      )}
      <ErrorMessage error={add.error ?? removeMember.error ?? removeTeam.error} />
      {can(role, "team", "delete") && (
        <RowButton
          variant="danger"
          data-testid="team-remove"
          aria-label={t("teams.remove.label", { team: team.name })}
          onClick={async () => {
            const yes = await confirm({
              title: t("teams.remove.confirm.title", { team: team.name }),
              body: t("teams.remove.confirm.body", { team: team.name, organization: org.name }),
              confirmLabel: t("teams.remove.submit"),
            });
            if (yes && (await removeTeam.run({ teamId: team.id, organizationId: org.id }))) onRemoved(team.name);
          }}
        >
          {t("teams.remove.submit")}
        </RowButton>
      )}
    </div>
  );
}

/** The teams as a list with "Add team"; a team opens its own detail. */
export function OrganizationTeamsSection({
  organization: org,
  role,
}: {
  organization: FullOrganization;
  role: string | null | undefined;
}) {
  const { can } = useRoles();
  const { t } = useFrame();
  const client = useAuthClient();
  const create = useCall(client.organization.createTeam);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<FieldMessage | undefined>();
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const teams = org.teams ?? [];
  const open = teams.find((team) => team.id === openId);
  const version = teams.map((team) => `${team.id}:${team.name}`).join(",");
  const picker = <ActiveTeamSelect key={org.id} organizationId={org.id} version={version} />;
  if (open)
    return (
      <div className="gh-section">
        {picker}
        <TeamDetail
          key={open.id}
          team={open}
          organization={org}
          role={role}
          onBack={() => setOpenId(null)}
          onRemoved={(removed) => {
            setOpenId(null);
            setNotice(t("teams.remove.done", { team: removed }));
          }}
        />
      </div>
    );
  return (
    <div className="gh-section">
      {picker}
      {notice && (
        <Notice key={notice} testId="teams-notice" takeFocus>
          {notice}
        </Notice>
      )}
      {teams.length === 0 ? (
        <p className="gh-hint">{t("teams.none")}</p>
      ) : (
        <ul className="gh-list" data-testid="teams-list">
          {teams.map((team) => (
            <li key={team.id} data-testid="team-row">
              <strong className="gh-grow">{team.name}</strong>
              <RowButton
                data-testid="team-open"
                aria-label={t("teams.manage", { team: team.name })}
                onClick={() => {
                  setNotice(null);
                  setOpenId(team.id);
                }}
              >
                {t("teams.open")}
              </RowButton>
            </li>
          ))}
        </ul>
      )}
      {can(role, "team", "create") &&
        (adding ? (
          <Form
            label={t("teams.new")}
            error={create.error}
            onSubmit={async () => {
              if (!name.trim()) return setNameError({ key: "validation.teamName" });
              setNameError(undefined);
              if (await create.run({ name: name.trim(), organizationId: org.id })) {
                setName("");
                setAdding(false);
              }
            }}
          >
            <Field
              label={t("teams.name")}
              testId="team-create-name"
              value={name}
              error={nameError}
              autoFocus
              onChange={(e) => setName(e.target.value)}
            />
            <ErrorMessage error={create.error} />
            <Button pending={create.pending} data-testid="team-create-submit">
              {t("teams.create")}
            </Button>
          </Form>
        ) : (
          <RowButton variant="primary" data-testid="team-add" onClick={() => setAdding(true)}>
            {t("teams.add")}
          </RowButton>
        ))}
    </div>
  );
}
