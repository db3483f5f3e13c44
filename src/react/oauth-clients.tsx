import { useState } from "react";
import type { OAuthClientEntry } from "../client/types.js";
import { DEVICE_CODE_GRANT, type OAUTH_GRANT_TYPES } from "../contract/oauth-provider.js";
import { useConfirm } from "./confirm.js";
import {
  Actions,
  Button,
  Checkbox,
  ErrorMessage,
  Field,
  Form,
  Loading,
  Notice,
  OwnWords,
  Panel,
  TextArea,
  useFrame,
} from "./form-parts.js";
import type { Labels, Localization } from "./localization.js";
import { CopyButton, useFormatDate, useLoad } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

export interface OAuthClientsProps {
  /** An organization's clients (its owners manage them); without it, the signed-in user's own. */
  organizationId?: string;
  /**
   * Every client, for the admin area (the `oauthClient` admin permission, `/admin/oauth2/...`):
   * listed with their owners, changed, disabled or deleted; no secrets and no new clients here.
   */
  all?: boolean;
  /** The language, when not inside another component that passes its own. */
  localization?: Localization;
  labels?: Labels;
}

type GrantType = (typeof OAUTH_GRANT_TYPES)[number];

/** The client id, and the secret this once (creation, rotation), each with a copy button. */
function Credentials({ entry, onDone }: { entry: OAuthClientEntry; onDone: () => void }) {
  const { t } = useFrame();
  return (
    <div data-testid="oauth-client-credentials">
      {entry.client_secret && (
        <Notice takeFocus testId="oauth-client-once">
          {t("oauthClients.once")}
        </Notice>
      )}
      <Field label={t("oauthClients.clientId")} testId="oauth-client-id" value={entry.client_id} readOnly />
      {entry.client_secret && (
        <Field label={t("oauthClients.secret")} testId="oauth-client-secret" value={entry.client_secret} readOnly />
      )}
      <Actions>
        <CopyButton text={entry.client_id} testId="oauth-client-copy-id" label={t("oauthClients.copyId")} />
        {entry.client_secret && (
          <CopyButton
            text={entry.client_secret}
            testId="oauth-client-copy-secret"
            label={t("oauthClients.copySecret")}
          />
        )}
        <Button type="button" variant="secondary" onClick={onDone} data-testid="oauth-client-done">
          {t("oauthClients.done")}
        </Button>
      </Actions>
    </div>
  );
}

/** Who answers for a client, in the admin list. */
function ownerOf(entry: OAuthClientEntry, t: ReturnType<typeof useFrame>["t"]): string {
  if (entry.organizationId) return t("oauthClients.owner.organization", { id: entry.organizationId });
  if (entry.userId) return t("oauthClients.owner.user", { id: entry.userId });
  return t("oauthClients.owner.none");
}

/** What the edit form changes: the client's addresses. */
export interface ClientUris {
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  frontchannel_logout_uri: string | null;
}

const lines = (text: string) => text.split(/\s+/).filter(Boolean);

/** The logout addresses as typed: post-logout redirect URIs one per line, the two logout URIs. */
interface LogoutAddresses {
  afterLogout: string;
  backchannel: string;
  frontchannel: string;
}

const NO_LOGOUT_ADDRESSES: LogoutAddresses = { afterLogout: "", backchannel: "", frontchannel: "" };

/** The logout addresses' fields, in the edit and the create form alike. */
function LogoutAddressFields({
  testIdPrefix,
  value,
  onChange,
}: {
  testIdPrefix: string;
  value: LogoutAddresses;
  onChange: (value: LogoutAddresses) => void;
}) {
  const { t } = useFrame();
  return (
    <>
      <TextArea
        label={t("oauthClients.postLogoutUris")}
        hint={t("oauthClients.postLogoutUris.hint")}
        testId={`${testIdPrefix}-post-logout-uris`}
        rows={2}
        value={value.afterLogout}
        onChange={(afterLogout) => onChange({ ...value, afterLogout })}
      />
      <Field
        label={t("oauthClients.backchannel")}
        hint={t("oauthClients.backchannel.hint")}
        testId={`${testIdPrefix}-backchannel`}
        type="url"
        value={value.backchannel}
        maxLength={2000}
        onChange={(e) => onChange({ ...value, backchannel: e.target.value })}
      />
      <Field
        label={t("oauthClients.frontchannel")}
        hint={t("oauthClients.frontchannel.hint")}
        testId={`${testIdPrefix}-frontchannel`}
        type="url"
        value={value.frontchannel}
        maxLength={2000}
        onChange={(e) => onChange({ ...value, frontchannel: e.target.value })}
      />
    </>
  );
}

/** A client's addresses edited in place: redirect and post-logout URIs one per line, the logout URIs. */
function ClientUrisForm({
  entry,
  pending,
  onSave,
  onCancel,
}: {
  entry: OAuthClientEntry;
  pending: boolean;
  onSave: (uris: ClientUris) => void;
  onCancel: () => void;
}) {
  const { t } = useFrame();
  const [uris, setUris] = useState(entry.redirect_uris.join("\n"));
  const [logout, setLogout] = useState<LogoutAddresses>({
    afterLogout: entry.post_logout_redirect_uris.join("\n"),
    backchannel: entry.backchannel_logout_uri ?? "",
    frontchannel: entry.frontchannel_logout_uri ?? "",
  });
  return (
    <Form
      label={t("oauthClients.editLabel", { name: entry.client_name })}
      onSubmit={() =>
        onSave({
          redirect_uris: lines(uris),
          post_logout_redirect_uris: lines(logout.afterLogout),
          backchannel_logout_uri: logout.backchannel.trim() || null,
          frontchannel_logout_uri: logout.frontchannel.trim() || null,
        })
      }
    >
      <TextArea
        label={t("oauthClients.redirectUris")}
        hint={t("oauthClients.redirectUris.hint")}
        testId="oauth-client-edit-uris"
        rows={3}
        value={uris}
        onChange={setUris}
      />
      <LogoutAddressFields testIdPrefix="oauth-client-edit" value={logout} onChange={setLogout} />
      <Actions>
        <Button variant="secondary" pending={pending} data-testid="oauth-client-save">
          {t("oauthClients.save")}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel} data-testid="oauth-client-cancel">
          {t("oauthClients.cancel")}
        </Button>
      </Actions>
    </Form>
  );
}

function ClientRow({
  entry,
  showOwner,
  saving,
  onRotate,
  onDelete,
  onToggle,
  onSaveUris,
}: {
  entry: OAuthClientEntry;
  showOwner: boolean;
  saving: boolean;
  onRotate?: (entry: OAuthClientEntry) => void;
  onDelete: (entry: OAuthClientEntry) => void;
  onToggle: (entry: OAuthClientEntry) => void;
  onSaveUris: (entry: OAuthClientEntry, uris: ClientUris) => Promise<boolean>;
}) {
  const { t } = useFrame();
  const formatDate = useFormatDate();
  const [editing, setEditing] = useState(false);
  const name = entry.client_name;
  const isPublic = entry.token_endpoint_auth_method === "none";
  const details = [
    entry.client_id,
    t(isPublic ? "oauthClients.kind.public" : "oauthClients.kind.confidential"),
    t("oauthClients.createdAt", { date: formatDate(new Date(entry.client_id_issued_at * 1000)) }),
    ...(showOwner ? [ownerOf(entry, t)] : []),
  ];
  return (
    <li className="gh-list-row" data-testid="oauth-client-row" data-client-id={entry.client_id}>
      <div>
        <strong>{name}</strong>
        {entry.disabled && (
          <span className="gh-tag" data-testid="oauth-client-disabled">
            {t("oauthClients.disabled")}
          </span>
        )}
        <p className="gh-hint">{details.join(" · ")}</p>
        {editing ? (
          <ClientUrisForm
            entry={entry}
            pending={saving}
            onCancel={() => setEditing(false)}
            onSave={async (uris) => {
              if (await onSaveUris(entry, uris)) setEditing(false);
            }}
          />
        ) : (
          entry.redirect_uris.length > 0 && <p className="gh-hint">{entry.redirect_uris.join(", ")}</p>
        )}
      </div>
      <Actions>
        {!editing && entry.grant_types.includes("authorization_code") && (
          <Button
            type="button"
            variant="secondary"
            aria-label={t("oauthClients.editLabel", { name })}
            data-testid="oauth-client-edit"
            onClick={() => setEditing(true)}
          >
            {t("oauthClients.edit")}
          </Button>
        )}
        <Button
          type="button"
          variant="secondary"
          aria-label={t(entry.disabled ? "oauthClients.enableLabel" : "oauthClients.disableLabel", { name })}
          data-testid="oauth-client-toggle"
          onClick={() => onToggle(entry)}
        >
          {t(entry.disabled ? "oauthClients.enable" : "oauthClients.disable")}
        </Button>
        {!isPublic && onRotate && (
          <Button
            type="button"
            variant="secondary"
            aria-label={t("oauthClients.rotateLabel", { name })}
            data-testid="oauth-client-rotate"
            onClick={() => onRotate(entry)}
          >
            {t("oauthClients.rotate")}
          </Button>
        )}
        <Button
          type="button"
          variant="danger"
          aria-label={t("oauthClients.deleteLabel", { name })}
          data-testid="oauth-client-delete"
          onClick={() => onDelete(entry)}
        >
          {t("oauthClients.delete")}
        </Button>
      </Actions>
    </li>
  );
}

function NewClientForm({
  organizationId,
  onCreated,
}: {
  organizationId?: string;
  onCreated: (entry: OAuthClientEntry) => void;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const create = useCall(client.oauth2.createClient);
  const [name, setName] = useState("");
  const [uris, setUris] = useState("");
  const [isPublic, setPublic] = useState(false);
  const [refresh, setRefresh] = useState(false);
  const [device, setDevice] = useState(false);
  const [logout, setLogout] = useState<LogoutAddresses>(NO_LOGOUT_ADDRESSES);
  return (
    <Form
      label={t("oauthClients.create")}
      error={create.error}
      onSubmit={async () => {
        const grants: GrantType[] = ["authorization_code"];
        if (refresh) grants.push("refresh_token");
        if (device) grants.push(DEVICE_CODE_GRANT);
        const made = await create.run({
          client_name: name.trim(),
          redirect_uris: lines(uris),
          token_endpoint_auth_method: isPublic ? "none" : "client_secret_basic",
          grant_types: grants,
          organizationId,
          post_logout_redirect_uris: lines(logout.afterLogout),
          ...(logout.backchannel.trim() ? { backchannel_logout_uri: logout.backchannel.trim() } : {}),
          ...(logout.frontchannel.trim() ? { frontchannel_logout_uri: logout.frontchannel.trim() } : {}),
        });
        if (!made) return;
        setName("");
        setUris("");
        setLogout(NO_LOGOUT_ADDRESSES);
        onCreated(made);
      }}
    >
      <Field
        label={t("oauthClients.name")}
        testId="oauth-client-name"
        value={name}
        maxLength={200}
        required
        onChange={(e) => setName(e.target.value)}
      />
      <TextArea
        label={t("oauthClients.redirectUris")}
        hint={t("oauthClients.redirectUris.hint")}
        testId="oauth-client-redirect-uris"
        rows={3}
        value={uris}
        onChange={setUris}
      />
      <Checkbox label={t("oauthClients.public")} testId="oauth-client-public" checked={isPublic} onChange={setPublic} />
      <Checkbox
        label={t("oauthClients.refresh")}
        testId="oauth-client-refresh"
        checked={refresh}
        onChange={setRefresh}
      />
      <Checkbox label={t("oauthClients.device")} testId="oauth-client-device" checked={device} onChange={setDevice} />
      <details data-testid="oauth-client-logout">
        <summary>{t("oauthClients.logoutAddresses")}</summary>
        <LogoutAddressFields testIdPrefix="oauth-client" value={logout} onChange={setLogout} />
      </details>
      <ErrorMessage error={create.error} />
      <Actions>
        <Button variant="secondary" pending={create.pending} disabled={!name.trim()} data-testid="oauth-client-create">
          {t("oauthClients.create")}
        </Button>
      </Actions>
    </Form>
  );
}

/** The list in the admin area: one page of every client (the newest). */
const ADMIN_PAGE = 200;

function Clients({ organizationId, all }: { organizationId?: string; all?: boolean }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const clients = useLoad(async () => {
    if (!all) return client.oauth2.getClients(organizationId ? { query: { organizationId } } : undefined);
    const page = await client.admin.oauth2.getClients({ query: { limit: ADMIN_PAGE } });
    return page.error ? page : { data: page.data.clients, error: null };
  });
  const rotate = useCall(client.oauth2.client.rotateSecret);
  const remove = useCall(all ? client.admin.oauth2.deleteClient : client.oauth2.deleteClient);
  const update = useCall(all ? client.admin.oauth2.updateClient : client.oauth2.updateClient);
  const { confirm, dialog } = useConfirm();
  const [shown, setShown] = useState<OAuthClientEntry | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const onRotate = async (entry: OAuthClientEntry) => {
    setNotice(null);
    const name = entry.client_name;
    const yes = await confirm({
      title: t("oauthClients.rotate.confirm.title", { name }),
      body: t("oauthClients.rotate.confirm.body"),
      confirmLabel: t("oauthClients.rotate"),
    });
    if (!yes) return;
    const rotated = await rotate.run({ client_id: entry.client_id });
    if (rotated) setShown(rotated);
  };
  const onDelete = async (entry: OAuthClientEntry) => {
    setNotice(null);
    const name = entry.client_name;
    const yes = await confirm({
      title: t("oauthClients.delete.confirm.title", { name }),
      body: t("oauthClients.delete.confirm.body"),
      confirmLabel: t("oauthClients.delete"),
    });
    if (!yes) return;
    if (await remove.run({ client_id: entry.client_id })) setNotice(t("oauthClients.deleted", { name }));
    if (shown?.client_id === entry.client_id) setShown(null);
    clients.reload();
  };

  const onToggle = async (entry: OAuthClientEntry) => {
    setNotice(null);
    const name = entry.client_name;
    if (!entry.disabled) {
      const yes = await confirm({
        title: t("oauthClients.disable.confirm.title", { name }),
        body: t("oauthClients.disable.confirm.body"),
        confirmLabel: t("oauthClients.disable"),
      });
      if (!yes) return;
    }
    const changed = await update.run({ client_id: entry.client_id, update: { disabled: !entry.disabled } });
    if (changed)
      setNotice(t(changed.disabled ? "oauthClients.disabledNotice" : "oauthClients.enabledNotice", { name }));
    clients.reload();
  };
  const onSaveUris = async (entry: OAuthClientEntry, uris: ClientUris) => {
    setNotice(null);
    const changed = await update.run({ client_id: entry.client_id, update: uris });
    if (!changed) return false;
    setNotice(t("oauthClients.saved", { name: entry.client_name }));
    clients.reload();
    return true;
  };

  const list = (clients.data ?? []) as OAuthClientEntry[];
  return (
    <Panel title={t(all ? "oauthClients.all.title" : "oauthClients.title")} testId="oauth-clients-card">
      {dialog}
      {notice && (
        <Notice key={notice} testId="oauth-clients-notice" takeFocus>
          {notice}
        </Notice>
      )}
      <p>{t(all ? "oauthClients.all.intro" : "oauthClients.intro")}</p>
      {clients.pending ? (
        <Loading />
      ) : clients.error ? (
        <ErrorMessage error={clients.error} />
      ) : list.length === 0 ? (
        <p className="gh-hint" data-testid="oauth-clients-empty">
          {t("oauthClients.empty")}
        </p>
      ) : (
        <ul className="gh-list" data-testid="oauth-clients-list">
          {list.map((entry) => (
            <ClientRow
              key={entry.client_id}
              entry={entry}
              showOwner={Boolean(all)}
              saving={update.pending}
              onRotate={all ? undefined : (e) => void onRotate(e)}
              onDelete={(e) => void onDelete(e)}
              onToggle={(e) => void onToggle(e)}
              onSaveUris={onSaveUris}
            />
          ))}
        </ul>
      )}
      <ErrorMessage error={rotate.error ?? remove.error ?? update.error} />
      {all ? null : shown ? (
        <Credentials entry={shown} onDone={() => setShown(null)} />
      ) : (
        <NewClientForm
          organizationId={organizationId}
          onCreated={(made) => {
            setShown(made);
            clients.reload();
          }}
        />
      )}
    </Panel>
  );
}

/**
 * OAuth clients (docs/oauth-provider.md): an organization's, managed by its owners, or the signed-in
 * user's own. Lists them, registers one (its secret shown once), gives a confidential one a new
 * secret (shown once; the old one stops at once), edits its redirect URIs, disables or enables it
 * (a disabled client's tokens stop at once) and deletes one, with its tokens and consents. With
 * `all`, every client for the admin area.
 *
 * @example
 * <AuthProvider client={client}>
 *   <OAuthClients organizationId={organization.id} localization="de" />
 * </AuthProvider>
 */
export function OAuthClients({ organizationId, all, localization, labels }: OAuthClientsProps) {
  return (
    <OwnWords localization={localization} labels={labels}>
      <Clients organizationId={organizationId} all={all} />
    </OwnWords>
  );
}
