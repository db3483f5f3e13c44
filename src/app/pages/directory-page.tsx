import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { ScimConnection, ScimGroupMapping } from "../../contract/scim.js";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { ScimHealthView } from "../../react/scim-health-view.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { CopyField } from "../components/copy-field.js";
import { Button, Card, Checkbox, Field, FormError, Loading, Notice, Select } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useConfirmedAction } from "../lib/confirmed-action.js";
import { useFormatDate, usePageTitle, useT } from "../lib/i18n.js";
import { roleLabel, useRoles } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

const CONNECTIONS = ["scim-connections"];

/** The token of a generation, shown this once, with the base URL the identity provider needs. */
function NewToken({ token, onDone }: { token: string; onDone: () => void }) {
  const t = useT();
  return (
    <Card title={t("directory.token.title")} testId="scim-token-card">
      <Notice testId="scim-token-once" takeFocus>
        {t("directory.token.once")}
      </Notice>
      <CopyField label={t("directory.token.baseUrl")} value={`${authClient.apiURL}/scim/v2`} testId="scim-base-url" />
      <CopyField label={t("directory.token.token")} value={token} testId="scim-token" />
      <Button type="button" variant="secondary" data-testid="scim-token-done" onClick={onDone}>
        {t("directory.token.done")}
      </Button>
    </Card>
  );
}

function ConnectForm({ organizationId, onToken }: { organizationId: string; onToken: (token: string) => void }) {
  const t = useT();
  const active = useActiveOrganization();
  const generate = useSubmit(authClient.scim.generateToken);
  const [providerId, setProviderId] = useState(() => `${active.data?.slug ?? "org"}-scim`);
  const [linkExistingMembers, setLink] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = await generate.run({ providerId, organizationId, linkExistingMembers });
    if (data) onToken(data.scimToken);
  };
  return (
    <Card title={t("directory.connect.title")} testId="scim-connect-card">
      <form onSubmit={(e) => void submit(e)} aria-label={t("directory.connect.title")} noValidate>
        <Field
          label={t("directory.connect.providerId")}
          hint={t("directory.connect.providerIdHint")}
          testId="scim-provider-id"
          value={providerId}
          onChange={(e) => setProviderId(e.target.value)}
        />
        <Checkbox
          label={t("directory.connect.linkExisting")}
          testId="scim-link-existing"
          checked={linkExistingMembers}
          onChange={setLink}
        />
        <FormError error={generate.error} />
        <Button pending={generate.pending} data-testid="scim-generate">
          {t("directory.connect.submit")}
        </Button>
      </form>
    </Card>
  );
}

/** The people the directory provisioned, and whether each is a member now. */
function ProvisionedMembers({ providerId }: { providerId: string }) {
  const t = useT();
  const formatDate = useFormatDate();
  const users = useQuery({
    queryKey: ["scim-users", providerId],
    queryFn: () => unwrap(authClient.scim.listUsers({ query: { providerId, limit: 500 } })),
  });
  return (
    <Card title={t("directory.users.title")} testId="scim-users-card">
      {users.isPending ? (
        <Loading />
      ) : users.error ? (
        <FormError error={users.error} />
      ) : users.data.users.length === 0 ? (
        <p data-testid="scim-users-none">{t("directory.users.none")}</p>
      ) : (
        <ul className="rows" data-testid="scim-users">
          {users.data.users.map((user) => (
            <li key={user.id} className="row" data-testid="scim-user-row">
              <div>
                <strong>{user.name || user.email}</strong>
                <p className="hint">{user.email}</p>
              </div>
              <p className="hint">
                <span className="badge">{t(user.active ? "directory.users.active" : "directory.users.inactive")}</span>{" "}
                {t("directory.users.since", { date: formatDate(user.createdAt) })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** How the sync goes: what the connection provisioned and its latest refused calls (with SCIM's message). */
function SyncHealth({ providerId }: { providerId: string }) {
  const t = useT();
  const formatDate = useFormatDate();
  const health = useQuery({
    queryKey: ["scim-health", providerId],
    queryFn: () => unwrap(authClient.scim.connectionHealth({ query: { providerId } })),
  });
  if (health.isPending) return <Loading />;
  if (health.error) return <FormError error={health.error} />;
  return (
    <div data-testid="scim-health">
      <ScimHealthView health={health.data} t={t} formatDate={formatDate} testIdPrefix="" />
    </div>
  );
}

/** The select's value for a mapping: "", "role:<role>" or "team:<id>". */
const mappingValue = (group: ScimGroupMapping) =>
  group.role ? `role:${group.role}` : group.teamId ? `team:${group.teamId}` : "";

function GroupRow({ providerId, group }: { providerId: string; group: ScimGroupMapping }) {
  const { table } = useRoles();
  const t = useT();
  const queryClient = useQueryClient();
  const active = useActiveOrganization();
  const update = useSubmit(authClient.scim.updateGroupMapping);
  const [value, setValue] = useState(mappingValue(group));
  const [saved, setSaved] = useState(false);
  const teams = active.data?.teams ?? [];
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const [kind, target] = value ? [value.slice(0, 4), value.slice(5)] : ["", ""];
    const body =
      kind === "role"
        ? { role: target, teamId: null, teamRole: null }
        : kind === "team"
          ? { role: null, teamId: target }
          : { role: null, teamId: null, teamRole: null };
    if (await update.run({ providerId, groupId: group.id, ...body })) {
      await queryClient.invalidateQueries({ queryKey: ["scim-groups", providerId] });
      await authClient.$store.activeOrganization.refetch();
      // Once the page shows the saved mapping, as every "saved" notice here.
      setSaved(true);
    }
  };
  // A role the select does not list (a custom one) is still shown as it is.
  // Every role but the creator's: a directory's group never makes an owner (the server refuses it).
  const offered = Object.keys(table.roles).filter((name) => name !== table.creatorRole);
  const roles: string[] = group.role && !offered.includes(group.role) ? [...offered, group.role] : offered;
  return (
    <li className="row column" data-testid="scim-group-row">
      <h3>{group.displayName}</h3>
      <p className="hint">{t("directory.groups.members", { count: group.members })}</p>
      <form className="inline-form" onSubmit={(e) => void save(e)} aria-label={group.displayName}>
        <Select
          label={t("directory.groups.mapping", { group: group.displayName })}
          testId="scim-group-mapping"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        >
          <option value="">{t("directory.groups.unmapped")}</option>
          {roles.map((role) => (
            <option key={role} value={`role:${role}`}>
              {t("directory.groups.role", { role: roleLabel(role, t) })}
            </option>
          ))}
          {teams.map((team) => (
            <option key={team.id} value={`team:${team.id}`}>
              {t("directory.groups.team", { team: team.name })}
            </option>
          ))}
        </Select>
        <Button
          variant="secondary"
          pending={update.pending}
          aria-label={t("directory.groups.saveLabel", { group: group.displayName })}
          data-testid="scim-group-save"
        >
          {t("directory.groups.save")}
        </Button>
      </form>
      {saved && <Notice testId="scim-group-saved">{t("directory.groups.saved", { group: group.displayName })}</Notice>}
      <FormError error={update.error} />
    </li>
  );
}

function Groups({ providerId }: { providerId: string }) {
  const t = useT();
  const groups = useQuery({
    queryKey: ["scim-groups", providerId],
    queryFn: () => unwrap(authClient.scim.listGroups({ query: { providerId } })),
  });
  return (
    <Card title={t("directory.groups.title")} testId="scim-groups-card">
      <p>{t("directory.groups.intro")}</p>
      {groups.isPending ? (
        <Loading />
      ) : groups.error ? (
        <FormError error={groups.error} />
      ) : groups.data.groups.length === 0 ? (
        <p data-testid="scim-groups-none">{t("directory.groups.none")}</p>
      ) : (
        <ul className="rows" data-testid="scim-groups">
          {groups.data.groups.map((group) => (
            <GroupRow key={group.id} providerId={providerId} group={group} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Whether the directory may take over existing members: saved as it is switched, the token kept. */
function LinkExistingSwitch({ connection }: { connection: ScimConnection }) {
  const t = useT();
  const queryClient = useQueryClient();
  const update = useSubmit(authClient.scim.updateProviderConnection);
  const [checked, setChecked] = useState(connection.linkExistingMembers);
  const [saved, setSaved] = useState(false);
  const change = async (on: boolean) => {
    setSaved(false);
    setChecked(on);
    const answer = await update.run({ providerId: connection.providerId, linkExistingMembers: on });
    setChecked(answer ? answer.linkExistingMembers : !on);
    if (!answer) return;
    await queryClient.invalidateQueries({ queryKey: CONNECTIONS });
    setSaved(true);
  };
  return (
    <>
      <fieldset disabled={update.pending}>
        <Checkbox
          label={t("directory.connect.linkExisting")}
          testId="scim-connection-link-existing"
          checked={checked}
          onChange={(on) => void change(on)}
        />
      </fieldset>
      <p className="hint">{t("directory.linkExisting.hint")}</p>
      {saved && (
        <Notice testId="scim-link-existing-saved">
          {t(checked ? "directory.linkExisting.on" : "directory.linkExisting.off")}
        </Notice>
      )}
      <FormError error={update.error} testId="scim-link-existing-error" />
    </>
  );
}

/** One connection: when it last synced, a new token or none, whom it provisioned, what its groups grant. */
function Connection({
  connection,
  onToken,
  onRevoked,
}: {
  connection: ScimConnection;
  onToken: (token: string) => void;
  onRevoked: (name: string) => void;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  const queryClient = useQueryClient();
  const rotate = useSubmit(authClient.scim.generateToken);
  const revoke = useSubmit(authClient.scim.deleteProviderConnection);
  const { act, dialog } = useConfirmedAction();
  const name = connection.providerId;
  const refresh = () => queryClient.invalidateQueries({ queryKey: CONNECTIONS });
  return (
    <>
      {dialog}
      <Card title={t("directory.connection.title", { name })} testId="scim-connection-card">
        <dl className="details">
          <dt>{t("directory.connection.created")}</dt>
          <dd>{formatDate(connection.createdAt)}</dd>
          <dt>{t("directory.connection.lastSync")}</dt>
          <dd data-testid="scim-last-sync">
            {connection.lastUsedAt ? formatDate(connection.lastUsedAt) : t("directory.connection.never")}
          </dd>
        </dl>
        <SyncHealth providerId={name} />
        <LinkExistingSwitch connection={connection} />
        <FormError error={rotate.error ?? revoke.error} />
        <div className="actions">
          <ConfirmButton
            act={act}
            pending={rotate.pending}
            testId="scim-rotate"
            action={{
              ask: {
                title: t("directory.rotate.confirm.title", { name }),
                body: t("directory.rotate.confirm.body"),
                confirmLabel: t("directory.rotate"),
              },
              run: () => rotate.run({ providerId: name, organizationId: connection.organizationId }),
              done: (data) => {
                onToken(data.scimToken);
                return refresh();
              },
            }}
          >
            {t("directory.rotate")}
          </ConfirmButton>
          <ConfirmButton
            act={act}
            variant="danger"
            pending={revoke.pending}
            testId="scim-revoke"
            action={{
              ask: {
                title: t("directory.revoke.confirm.title", { name }),
                body: t("directory.revoke.confirm.body"),
                confirmLabel: t("directory.revoke"),
              },
              run: () => revoke.run({ providerId: name }),
              done: () => {
                onRevoked(name);
                return refresh();
              },
            }}
          >
            {t("directory.revoke")}
          </ConfirmButton>
        </div>
      </Card>
      <ProvisionedMembers providerId={name} />
      <Groups providerId={name} />
    </>
  );
}

/** The organization's SCIM directory, for its owners (the server lets nobody else manage it). */
export function DirectoryPage() {
  const { isOwner } = useRoles();
  const t = useT();
  const config = useAppConfig();
  const active = useActiveOrganization();
  const member = useActiveMember();
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  usePageTitle("directory.title");
  const owner = isOwner(member.data?.role);
  const connections = useQuery({
    queryKey: CONNECTIONS,
    queryFn: () => unwrap(authClient.scim.listProviderConnections()),
    enabled: owner && config.scim,
  });
  const org = active.data;
  if (!org || member.isPending) return <Loading />;
  if (!config.scim) return <Card title={t("directory.title")}>{<p>{t("directory.disabled")}</p>}</Card>;
  if (!owner)
    return (
      <Card title={t("directory.title")} testId="directory-restricted">
        <p>{t("directory.ownersOnly")}</p>
      </Card>
    );
  if (connections.isPending) return <Loading label={t("directory.loading")} />;
  if (connections.error) return <FormError error={connections.error} />;
  const mine = connections.data.providers.filter((c) => c.organizationId === org.id);
  const showToken = (value: string) => {
    setRevoked(null);
    setToken(value);
    void queryClient.invalidateQueries({ queryKey: CONNECTIONS });
  };
  return (
    <>
      <p className="intro">{t("directory.intro")}</p>
      {revoked && (
        <Notice key={revoked} testId="scim-revoked" takeFocus>
          {t("directory.revoke.done", { name: revoked })}
        </Notice>
      )}
      {token && <NewToken token={token} onDone={() => setToken(null)} />}
      {mine.length === 0 && <ConnectForm organizationId={org.id} onToken={showToken} />}
      {mine.map((connection) => (
        <Connection
          key={connection.id}
          connection={connection}
          onToken={showToken}
          onRevoked={(name) => {
            setToken(null);
            setRevoked(name);
          }}
        />
      ))}
    </>
  );
}
