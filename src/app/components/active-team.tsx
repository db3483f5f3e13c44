import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSession } from "../../react/index.js";
import { authClient, unwrap } from "../lib/client.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import { Button, FormError, Notice, Select } from "./ui.js";

/**
 * The session's active team in the active organization, and a form to switch it (or clear it). A
 * select plus a button rather than acting on change: arrow keys on a closed select fire changes.
 */
export function ActiveTeamPicker({ organizationId, teamsVersion }: { organizationId: string; teamsVersion: string }) {
  const t = useT();
  const session = useSession();
  const teams = useQuery({
    // Teams created, renamed or removed change the version: the list is read again.
    queryKey: ["user-teams", organizationId, teamsVersion],
    queryFn: () => unwrap(authClient.organization.listUserTeams({ query: { organizationId } })),
  });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<HasCode | null>(null);
  const activeTeamId = session.data?.session.activeTeamId ?? "";
  const [choice, setChoice] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!teams.data) return null;
  // An active team the user has since left is shown as none.
  const current = teams.data.some((team) => team.id === activeTeamId) ? activeTeamId : "";
  const selected = choice ?? current;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setNotice(null);
    setError(null);
    setPending(true);
    try {
      // The answer is the team, or null when none is active now.
      const { data: team, error } = await authClient.organization.setActiveTeam({ teamId: selected || null });
      if (error) return setError(error);
      await session.refetch();
      setChoice(null);
      setNotice(team ? t("details.team.switched", { team: team.name }) : t("details.team.cleared"));
    } finally {
      setPending(false);
    }
  };
  return (
    <form className="active-team" onSubmit={(event) => void submit(event)} data-testid="active-team">
      <Select
        label={t("details.team.label")}
        testId="active-team-select"
        value={selected}
        onChange={(event) => {
          setNotice(null);
          setChoice(event.target.value);
        }}
      >
        <option value="">{t("details.team.none")}</option>
        {teams.data.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </Select>
      {/* Never disabled: the focus stays on it after switching, for the next switch. */}
      <Button variant="secondary" aria-busy={pending || undefined} data-testid="active-team-submit">
        {t("details.team.switch")}
      </Button>
      {notice && <Notice testId="active-team-notice">{notice}</Notice>}
      <FormError error={error} />
    </form>
  );
}
