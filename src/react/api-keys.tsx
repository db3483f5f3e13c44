import { useState } from "react";
import type { ApiKeyEntry, OAuthClientEntry } from "../client/types.js";
import { useConfirm } from "./confirm.js";
import { Actions, Button, ErrorMessage, Field, Form, Loading, Notice, Panel, useFrame } from "./form-parts.js";
import { CopyButton, useFormatDate, useLoad } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

export interface ApiKeysProps {
  /** An organization's keys; without it, the signed-in user's own. */
  organizationId?: string;
}

/** The key just made, shown once with a copy button until its maker says it is copied. */
function NewKey({ text, onDone }: { text: string; onDone: () => void }) {
  const { t } = useFrame();
  return (
    <div data-testid="api-key-new">
      <Notice takeFocus testId="api-key-once">
        {t("apiKeys.once")}
      </Notice>
      <Field label={t("apiKeys.key")} testId="api-key-text" value={text} readOnly />
      <Actions>
        <CopyButton text={text} testId="api-key-copy" label={t("apiKeys.copy")} />
        <Button type="button" variant="secondary" onClick={onDone} data-testid="api-key-done">
          {t("apiKeys.done")}
        </Button>
      </Actions>
    </div>
  );
}

/** One row of the list: an API key or an organization's machine client, told apart by a tag. */
interface Identity {
  id: string;
  name: string | null;
  /** What identifies it without its secret: a key's first characters, a client's id. */
  start: string | null;
  createdBy: string | null;
  lastUsed: Date | null;
  expiresAt: Date | null;
  enabled: boolean;
  machineClient: boolean;
}

function keyIdentity(entry: ApiKeyEntry): Identity {
  const { id, name, start, createdBy, lastRequest, expiresAt, enabled } = entry;
  return { id, name, start, createdBy, lastUsed: lastRequest, expiresAt, enabled, machineClient: false };
}

function clientIdentity(entry: OAuthClientEntry): Identity {
  return {
    id: entry.client_id,
    name: entry.client_name,
    start: entry.client_id.slice(0, 8),
    createdBy: entry.createdBy ?? null,
    lastUsed: entry.lastUsedAt ?? null,
    // A client's secret does not expire (client_secret_expires_at 0); rotating or deleting ends it.
    expiresAt: null,
    enabled: !entry.disabled,
    machineClient: true,
  };
}

/** An organization's confidential client holding the client_credentials grant: a program, not a person's app. */
const isMachineClient = (entry: OAuthClientEntry) =>
  entry.grant_types.includes("client_credentials") && entry.token_endpoint_auth_method !== "none";

function IdentityRow({
  entry,
  creator,
  onRevoke,
}: {
  entry: Identity;
  creator: string | null;
  onRevoke: (entry: Identity) => void;
}) {
  const { t } = useFrame();
  const formatDate = useFormatDate();
  const name = entry.name || t("apiKeys.unnamed");
  const details = [
    entry.machineClient ? t("apiKeys.clientId", { id: `${entry.start}…` }) : entry.start ? `${entry.start}…` : null,
    creator ? t("apiKeys.createdBy", { name: creator }) : null,
    entry.lastUsed ? t("apiKeys.lastUsed", { date: formatDate(entry.lastUsed) }) : t("apiKeys.neverUsed"),
    entry.expiresAt ? t("apiKeys.expires", { date: formatDate(entry.expiresAt) }) : t("apiKeys.noExpiry"),
  ].filter((part): part is string => part !== null);
  return (
    <li className="gh-list-row" data-testid={entry.machineClient ? "api-key-client-row" : "api-key-row"}>
      <div>
        <strong>{name}</strong>
        {entry.machineClient && <span className="gh-tag">{t("apiKeys.machineClient")}</span>}
        {!entry.enabled && <span className="gh-tag">{t("apiKeys.disabled")}</span>}
        <p className="gh-hint">{details.join(" · ")}</p>
      </div>
      <Button
        type="button"
        variant="danger"
        aria-label={t("apiKeys.revokeLabel", { name })}
        data-testid="api-key-revoke"
        onClick={() => onRevoke(entry)}
      >
        {t("apiKeys.revoke")}
      </Button>
    </li>
  );
}

/**
 * API keys with their last use, maker and expiry (docs/api-keys.md): an organization's, or the
 * signed-in user's own. An organization's list also holds its machine clients (OAuth clients with the
 * client_credentials grant), for those who manage them (its owners), in the same rows. A new key is
 * shown once; revoking asks first and stops the key or client everywhere.
 *
 * @example
 * <AuthProvider client={client}>
 *   <ApiKeys organizationId={organization.id} />
 * </AuthProvider>
 */
export function ApiKeys({ organizationId }: ApiKeysProps) {
  const { t } = useFrame();
  const client = useAuthClient();
  const keys = useLoad(() => client.apiKey.list(organizationId ? { query: { organizationId } } : undefined));
  // Makers' names from the organization's members (a user's own keys are all theirs).
  const organization = useLoad(
    () => client.organization.getFullOrganization({ query: { organizationId } }),
    organizationId !== undefined,
  );
  // Machine clients: only an organization's owners manage them, and only with the OAuth provider on;
  // anyone else gets an error here, and sees the keys alone.
  const clients = useLoad(() => client.oauth2.getClients({ query: { organizationId } }), organizationId !== undefined);
  const create = useCall(client.apiKey.create);
  const revoke = useCall(client.apiKey.delete);
  const revokeClient = useCall(client.oauth2.deleteClient);
  const { confirm, dialog } = useConfirm();
  const [name, setName] = useState("");
  const [made, setMade] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const members = (organization.data as { members?: { userId: string; user: { name: string } }[] } | null)?.members;
  const creatorOf = (entry: Identity): string | null => {
    if (!organizationId) return null;
    if (entry.createdBy === null) return t("apiKeys.formerMember");
    return members?.find((member) => member.userId === entry.createdBy)?.user.name ?? t("apiKeys.formerMember");
  };

  const onRevoke = async (entry: Identity) => {
    setNotice(null);
    const label = entry.name || t("apiKeys.unnamed");
    const yes = await confirm({
      title: t("apiKeys.revoke.confirm.title", { name: label }),
      body: t(entry.machineClient ? "apiKeys.revoke.confirm.clientBody" : "apiKeys.revoke.confirm.body"),
      confirmLabel: t("apiKeys.revoke"),
    });
    if (!yes) return;
    const done = entry.machineClient
      ? await revokeClient.run({ client_id: entry.id })
      : await revoke.run({ keyId: entry.id });
    if (done) setNotice(t("apiKeys.revoked", { name: label }));
    if (entry.machineClient) clients.reload();
    else keys.reload();
  };

  const machineClients = clients.error ? [] : ((clients.data ?? []) as OAuthClientEntry[]).filter(isMachineClient);
  const list = [
    ...((keys.data?.apiKeys ?? []) as ApiKeyEntry[]).map(keyIdentity),
    ...machineClients.map(clientIdentity),
  ];
  return (
    <Panel title={t("apiKeys.title")} testId="api-keys-card">
      {dialog}
      {notice && (
        <Notice key={notice} testId="api-keys-notice" takeFocus>
          {notice}
        </Notice>
      )}
      <p>{t("apiKeys.intro")}</p>
      {keys.pending ? (
        <Loading />
      ) : keys.error ? (
        <ErrorMessage error={keys.error} />
      ) : list.length === 0 ? (
        <p className="gh-hint" data-testid="api-keys-empty">
          {t("apiKeys.empty")}
        </p>
      ) : (
        <ul className="gh-list" data-testid="api-keys-list">
          {list.map((entry) => (
            <IdentityRow key={entry.id} entry={entry} creator={creatorOf(entry)} onRevoke={(e) => void onRevoke(e)} />
          ))}
        </ul>
      )}
      <ErrorMessage error={revoke.error ?? revokeClient.error} />
      {made ? (
        <NewKey text={made} onDone={() => setMade(null)} />
      ) : (
        <Form
          label={t("apiKeys.create")}
          error={create.error}
          onSubmit={async () => {
            const reply = await create.run({ name: name.trim() || undefined, organizationId });
            if (!reply) return;
            setMade((reply as { key: string }).key);
            setName("");
            keys.reload();
          }}
        >
          <Field
            label={t("apiKeys.name")}
            testId="api-key-name"
            value={name}
            maxLength={32}
            onChange={(e) => setName(e.target.value)}
          />
          <Actions>
            <Button variant="secondary" pending={create.pending} data-testid="api-key-create">
              {t("apiKeys.create")}
            </Button>
          </Actions>
        </Form>
      )}
    </Panel>
  );
}
