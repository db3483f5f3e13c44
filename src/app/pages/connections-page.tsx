import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { z } from "zod";
import type { FullOrganization } from "../../contract/api-models.js";
import type { policyReply } from "../../contract/organization-policy.js";
import type { SSOProviderView } from "../../contract/sso.js";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { ConnectionCard } from "../components/connection-card.js";
import { AddConnectionForm } from "../components/connection-forms.js";
import { SetupLinksCard } from "../components/setup-links-card.js";
import { Button, Card, Checkbox, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useConfirmedAction } from "../lib/confirmed-action.js";
import { usePageTitle, useT } from "../lib/i18n.js";
import { useRoles } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

type PolicyReply = z.output<typeof policyReply>;

/**
 * The SSO-specific switch of the organization policy: require SSO for the verified domains, and
 * which owners keep a password path. Every other rule lives on the policy screen.
 */
function EnforcementCard({ org, mayChange }: { org: FullOrganization; mayChange: boolean }) {
  const { isOwner } = useRoles();
  const t = useT();
  const queryClient = useQueryClient();
  const key = ["organization-policy", org.id];
  const policy = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        authClient.$fetch<PolicyReply>(
          "/organization/get-policy",
          { query: { organizationId: org.id } },
          { method: "GET" },
        ),
      ),
  });
  const update = useSubmit((body: Record<string, unknown>) =>
    authClient.$fetch<PolicyReply>("/organization/update-policy", { body }, { method: "POST" }),
  );
  const [draft, setDraft] = useState<{ requireSSO: boolean; breakGlassUserIds: string[] } | null>(null);
  const [saved, setSaved] = useState(false);
  if (policy.isPending) return <Loading />;
  if (policy.error) return <FormError error={policy.error} />;
  const current = draft ?? {
    requireSSO: policy.data.policy.requireSSO,
    breakGlassUserIds: policy.data.policy.breakGlassUserIds,
  };
  const owners = org.members.filter((m) => isOwner(m.role));
  const change = (next: typeof current) => {
    setSaved(false);
    setDraft(next);
  };
  return (
    <Card title={t("connections.enforce.title")} testId="sso-enforcement-card">
      <p>{t("connections.enforce.intro")}</p>
      {!mayChange && <p className="hint">{t("connections.enforce.ownersOnly")}</p>}
      <form
        aria-label={t("connections.enforce.title")}
        onSubmit={async (e) => {
          e.preventDefault();
          const answer = await update.run({ organizationId: org.id, ...current });
          if (answer) {
            queryClient.setQueryData(key, answer);
            setDraft(null);
            setSaved(true);
          }
        }}
      >
        <fieldset disabled={!mayChange}>
          <Checkbox
            label={t("connections.enforce.toggle")}
            testId="sso-require"
            checked={current.requireSSO}
            onChange={(requireSSO) => change({ ...current, requireSSO })}
          />
          <fieldset>
            <legend>{t("connections.enforce.breakGlass")}</legend>
            {owners.map((m) => (
              <Checkbox
                key={m.userId}
                label={t("connections.enforce.breakGlassOwner", { name: m.user?.name || m.user?.email || m.userId })}
                testId={`sso-break-glass-${m.userId}`}
                checked={current.breakGlassUserIds.includes(m.userId)}
                onChange={(on) =>
                  change({
                    ...current,
                    breakGlassUserIds: on
                      ? [...current.breakGlassUserIds, m.userId]
                      : current.breakGlassUserIds.filter((id) => id !== m.userId),
                  })
                }
              />
            ))}
          </fieldset>
        </fieldset>
        {saved && <Notice testId="sso-enforcement-saved">{t("connections.enforce.saved")}</Notice>}
        <FormError error={update.error} testId="sso-enforcement-error" />
        {mayChange && (
          <Button pending={update.pending} data-testid="sso-enforcement-submit">
            {t("connections.enforce.submit")}
          </Button>
        )}
      </form>
      <p>
        <Link to="/organization/policy">{t("connections.enforce.policyLink")}</Link>
      </p>
    </Card>
  );
}

/** The organization's SSO connections, for its owners and admins (organization:update). */
export function ConnectionsPage() {
  const { can, isOwner, assignable } = useRoles();
  const active = useActiveOrganization();
  const member = useActiveMember();
  const queryClient = useQueryClient();
  const t = useT();
  usePageTitle("connections.title");
  const role = member.data?.role;
  const mayManage = can(role, "organization", "update");
  const providers = useQuery({
    queryKey: ["sso-providers"],
    queryFn: () => unwrap(authClient.sso.providers()),
    enabled: mayManage,
  });
  const register = useSubmit(authClient.sso.register);
  const remove = useSubmit(authClient.sso.deleteProvider);
  const { act, dialog } = useConfirmedAction();
  const [notice, setNotice] = useState<{ text: string; takeFocus: boolean } | null>(null);
  const org = active.data;
  if (!org || member.isPending) return <Loading />;
  if (!mayManage)
    return (
      <Card title={t("connections.title")} testId="connections-restricted">
        <p>{t("connections.restricted")}</p>
      </Card>
    );
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["sso-providers"] });
  // The list answers every organization the caller manages: this screen shows the active one's.
  const connections = (providers.data?.providers ?? []).filter((p) => p.organizationId === org.id);
  const onDelete = (connection: SSOProviderView) => {
    setNotice(null);
    const name = connection.providerId;
    return act({
      ask: {
        title: t("connections.delete.confirm.title", { name }),
        body: t("connections.delete.confirm.body"),
        confirmLabel: t("common.delete"),
      },
      run: () => remove.run({ providerId: name }),
      done: async () => {
        await refresh();
        setNotice({ text: t("connections.delete.done", { name }), takeFocus: true });
      },
    });
  };
  return (
    <>
      {dialog}
      <Card title={t("connections.title")} testId="connections-card">
        <p>{t("connections.intro")}</p>
        {notice && (
          <Notice key={notice.text} testId="connections-notice" takeFocus={notice.takeFocus}>
            {notice.text}
          </Notice>
        )}
        {providers.isPending ? (
          <Loading label={t("connections.loading")} />
        ) : providers.error ? (
          <FormError error={providers.error} />
        ) : connections.length === 0 ? (
          <p data-testid="connections-none">{t("connections.none")}</p>
        ) : (
          <ul className="rows" data-testid="connections-list">
            {connections.map((c) => (
              <ConnectionCard
                key={c.providerId}
                connection={c}
                // Never the owner role: the server refuses it (owners are made in the organization).
                roles={assignable(null)}
                onChanged={refresh}
                onDelete={(x) => void onDelete(x)}
              />
            ))}
          </ul>
        )}
        <FormError error={remove.error} />
      </Card>
      <Card title={t("connections.add.title")} testId="connection-add-card">
        <AddConnectionForm
          apiURL={authClient.apiURL}
          pending={register.pending}
          error={register.error}
          onSubmit={async (connection) => {
            setNotice(null);
            const created = await register.run({ ...connection, organizationId: org.id });
            if (!created) return false;
            await refresh();
            setNotice({ text: t("connections.add.done", { name: created.providerId }), takeFocus: false });
            return true;
          }}
        />
      </Card>
      <EnforcementCard org={org} mayChange={isOwner(role)} />
      {isOwner(role) && <SetupLinksCard organizationId={org.id} />}
    </>
  );
}
