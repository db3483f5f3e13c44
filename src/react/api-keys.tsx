import { useState } from "react";
import type { ApiKeyEntry } from "../client/types.js";
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

function KeyRow({
  entry,
  creator,
  onRevoke,
}: {
  entry: ApiKeyEntry;
  creator: string | null;
  onRevoke: (entry: ApiKeyEntry) => void;
}) {
  const { t } = useFrame();
  const formatDate = useFormatDate();
  const name = entry.name || t("apiKeys.unnamed");
  const details = [
    entry.start ? `${entry.start}…` : null,
    creator ? t("apiKeys.createdBy", { name: creator }) : null,
    entry.lastRequest ? t("apiKeys.lastUsed", { date: formatDate(entry.lastRequest) }) : t("apiKeys.neverUsed"),
    entry.expiresAt ? t("apiKeys.expires", { date: formatDate(entry.expiresAt) }) : t("apiKeys.noExpiry"),
  ].filter((part): part is string => part !== null);
  return (
    <li className="gh-list-row" data-testid="api-key-row">
      <div>
        <strong>{name}</strong>
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
 * signed-in user's own. A new key is shown once; revoking asks first and stops the key everywhere.
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
  const create = useCall(client.apiKey.create);
  const revoke = useCall(client.apiKey.delete);
  const { confirm, dialog } = useConfirm();
  const [name, setName] = useState("");
  const [made, setMade] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const members = (organization.data as { members?: { userId: string; user: { name: string } }[] } | null)?.members;
  const creatorOf = (entry: ApiKeyEntry): string | null => {
    if (!organizationId) return null;
    if (entry.createdBy === null) return t("apiKeys.formerMember");
    return members?.find((member) => member.userId === entry.createdBy)?.user.name ?? t("apiKeys.formerMember");
  };

  const onRevoke = async (entry: ApiKeyEntry) => {
    setNotice(null);
    const label = entry.name || t("apiKeys.unnamed");
    const yes = await confirm({
      title: t("apiKeys.revoke.confirm.title", { name: label }),
      body: t("apiKeys.revoke.confirm.body"),
      confirmLabel: t("apiKeys.revoke"),
    });
    if (!yes) return;
    if (await revoke.run({ keyId: entry.id })) setNotice(t("apiKeys.revoked", { name: label }));
    keys.reload();
  };

  const list = (keys.data?.apiKeys ?? []) as ApiKeyEntry[];
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
            <KeyRow key={entry.id} entry={entry} creator={creatorOf(entry)} onRevoke={(e) => void onRevoke(e)} />
          ))}
        </ul>
      )}
      <ErrorMessage error={revoke.error} />
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
