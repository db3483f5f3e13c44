import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  ORGANIZATION_WEBHOOK_EVENTS,
  type OrganizationWebhook,
  type OrganizationWebhookEvent,
} from "../../contract/organization-webhooks.js";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { ConfirmButton } from "../components/confirm-button.js";
import { CopyField } from "../components/copy-field.js";
import { Button, Card, Checkbox, Field, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useConfirmedAction } from "../lib/confirmed-action.js";
import { useFormatDate, usePageTitle, useT } from "../lib/i18n.js";
import { useRoles } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

const webhooksKey = (organizationId: string) => ["organization-webhooks", organizationId];

/** The secret of a new or rotated webhook, shown this once. */
function NewSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  const t = useT();
  return (
    <Card title={t("webhooks.secret.title")} testId="webhook-secret-card">
      <Notice testId="webhook-secret-once" takeFocus>
        {t("webhooks.secret.once")}
      </Notice>
      <CopyField label={t("webhooks.secret.label")} value={secret} testId="webhook-secret" />
      <Button type="button" variant="secondary" data-testid="webhook-secret-done" onClick={onDone}>
        {t("webhooks.secret.done")}
      </Button>
    </Card>
  );
}

function EventChoice({
  chosen,
  onChange,
}: {
  chosen: OrganizationWebhookEvent[];
  onChange: (events: OrganizationWebhookEvent[]) => void;
}) {
  const t = useT();
  return (
    <fieldset className="field" data-testid="webhook-events">
      <legend>{t("webhooks.add.events")}</legend>
      {ORGANIZATION_WEBHOOK_EVENTS.map((event) => (
        <Checkbox
          key={event}
          label={event}
          testId={`webhook-event-${event}`}
          checked={chosen.includes(event)}
          onChange={(on) => onChange(on ? [...chosen, event] : chosen.filter((e) => e !== event))}
        />
      ))}
    </fieldset>
  );
}

function AddWebhook({ organizationId, onSecret }: { organizationId: string; onSecret: (secret: string) => void }) {
  const t = useT();
  const create = useSubmit(authClient.organization.createWebhook);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<OrganizationWebhookEvent[]>(["audit.entry"]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = await create.run({ organizationId, url, events });
    if (data) {
      setUrl("");
      onSecret(data.secret);
    }
  };
  return (
    <Card title={t("webhooks.add.title")} testId="webhook-add-card">
      <form onSubmit={(e) => void submit(e)} aria-label={t("webhooks.add.title")} noValidate>
        <Field
          label={t("webhooks.add.url")}
          hint={t("webhooks.add.urlHint")}
          testId="webhook-url"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <EventChoice chosen={events} onChange={setEvents} />
        <FormError error={create.error} />
        <Button pending={create.pending} data-testid="webhook-add">
          {t("webhooks.add.submit")}
        </Button>
      </form>
    </Card>
  );
}

/** How long after a test is sent its webhook's status is read again (a receiver on the internet answers in ~1 s). */
const TEST_STATUS_DELAY_MS = 2000;

function WebhookRow({ hook, onSecret }: { hook: OrganizationWebhook; onSecret: (secret: string) => void }) {
  const t = useT();
  const formatDate = useFormatDate();
  const queryClient = useQueryClient();
  const update = useSubmit(authClient.organization.updateWebhook);
  const rotate = useSubmit(authClient.organization.rotateWebhookSecret);
  const remove = useSubmit(authClient.organization.deleteWebhook);
  const test = useSubmit(authClient.organization.testWebhook);
  const [testSent, setTestSent] = useState<string | null>(null);
  const { act, dialog } = useConfirmedAction();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKey(hook.organizationId) });
  return (
    <li className="row column" data-testid="webhook-row" data-enabled={hook.enabled}>
      {dialog}
      <h3 className="break">{hook.url}</h3>
      <p className="hint">{hook.events.join(", ")}</p>
      <p className="hint" data-testid="webhook-status">
        {!hook.enabled
          ? t("webhooks.row.disabled")
          : !hook.lastDeliveryAt
            ? t("webhooks.row.never")
            : hook.lastDeliveryError
              ? t("webhooks.row.failed", { date: formatDate(hook.lastDeliveryAt), error: hook.lastDeliveryError })
              : t("webhooks.row.delivered", { date: formatDate(hook.lastDeliveryAt) })}
      </p>
      {testSent && (
        <Notice key={testSent} testId="webhook-test-sent">
          {t("webhooks.test.sent", { id: testSent })}
        </Notice>
      )}
      <FormError error={update.error ?? test.error ?? rotate.error ?? remove.error} />
      <div className="actions">
        <Button
          type="button"
          variant="secondary"
          pending={update.pending}
          data-testid="webhook-toggle"
          onClick={async () => {
            if (await update.run({ webhookId: hook.id, enabled: !hook.enabled })) await refresh();
          }}
        >
          {t(hook.enabled ? "webhooks.row.disable" : "webhooks.row.enable")}
        </Button>
        {hook.enabled && (
          <Button
            type="button"
            variant="secondary"
            pending={test.pending}
            data-testid="webhook-test"
            onClick={async () => {
              setTestSent(null);
              const sent = await test.run({ webhookId: hook.id });
              if (!sent) return;
              setTestSent(sent.deliveryId);
              // The delivery goes once this request is answered: read the status again shortly after.
              setTimeout(() => void refresh(), TEST_STATUS_DELAY_MS);
            }}
          >
            {t("webhooks.row.test")}
          </Button>
        )}
        <ConfirmButton
          act={act}
          pending={rotate.pending}
          testId="webhook-rotate"
          action={{
            ask: {
              title: t("webhooks.rotate.confirm.title", { url: hook.url }),
              body: t("webhooks.rotate.confirm.body"),
              confirmLabel: t("webhooks.row.rotate"),
            },
            run: () => rotate.run({ webhookId: hook.id }),
            done: (data) => {
              onSecret(data.secret);
              return refresh();
            },
          }}
        >
          {t("webhooks.row.rotate")}
        </ConfirmButton>
        <ConfirmButton
          act={act}
          variant="danger"
          pending={remove.pending}
          testId="webhook-delete"
          action={{
            ask: {
              title: t("webhooks.delete.confirm.title", { url: hook.url }),
              body: t("webhooks.delete.confirm.body"),
              confirmLabel: t("webhooks.row.delete"),
              tone: "danger",
            },
            run: () => remove.run({ webhookId: hook.id }),
            done: refresh,
          }}
        >
          {t("webhooks.row.delete")}
        </ConfirmButton>
      </div>
    </li>
  );
}

/** The organization's own webhooks, for its owners (the server lets nobody else see or change them). */
export function OrganizationWebhooksPage() {
  const { isOwner } = useRoles();
  const t = useT();
  const config = useAppConfig();
  const active = useActiveOrganization();
  const member = useActiveMember();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  usePageTitle("webhooks.title");
  const owner = isOwner(member.data?.role);
  const org = active.data;
  const hooks = useQuery({
    queryKey: webhooksKey(org?.id ?? ""),
    queryFn: () => unwrap(authClient.organization.listWebhooks({ query: { organizationId: org?.id } })),
    enabled: owner && config.organizationWebhooks && Boolean(org),
  });
  if (!org || member.isPending) return <Loading />;
  if (!config.organizationWebhooks) return <Card title={t("webhooks.title")}>{<p>{t("webhooks.disabled")}</p>}</Card>;
  if (!owner) {
    return (
      <Card title={t("webhooks.title")} testId="webhooks-restricted">
        <p>{t("webhooks.ownersOnly")}</p>
      </Card>
    );
  }
  const showSecret = (value: string) => {
    setSecret(value);
    void queryClient.invalidateQueries({ queryKey: webhooksKey(org.id) });
  };
  return (
    <>
      <p className="intro">{t("webhooks.intro")}</p>
      {secret && <NewSecret secret={secret} onDone={() => setSecret(null)} />}
      <Card title={t("webhooks.list.title")} testId="webhooks-card">
        {hooks.isPending ? (
          <Loading />
        ) : hooks.error ? (
          <FormError error={hooks.error} />
        ) : hooks.data.webhooks.length === 0 ? (
          <p data-testid="webhooks-none">{t("webhooks.list.none")}</p>
        ) : (
          <ul className="rows" data-testid="webhooks">
            {hooks.data.webhooks.map((hook) => (
              <WebhookRow key={hook.id} hook={hook} onSecret={showSecret} />
            ))}
          </ul>
        )}
      </Card>
      <AddWebhook organizationId={org.id} onSecret={showSecret} />
    </>
  );
}
