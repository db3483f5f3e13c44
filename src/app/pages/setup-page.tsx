import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { SETUP_GUIDES, type SetupGuide, type SetupLinkGrant, type SetupScope } from "../../contract/setup-links.js";
import type { SSOProviderView } from "../../contract/sso.js";
import { type DomainCalls, Domains, IdpSettings } from "../components/connection-card.js";
import { AddConnectionForm } from "../components/connection-forms.js";
import { CopyField } from "../components/copy-field.js";
import { Button, Card, Field, FormError, Loading, Notice, Select } from "../components/ui.js";
import { type AuthClientError, authClient, unwrap } from "../lib/client.js";
import { useFormatDate, usePageTitle, useT } from "../lib/i18n.js";
import { useSubmit } from "../lib/use-submit.js";

/*
 * The page a setup link opens (`/setup#<token>`; docs/sso.md, "Let the customer set it up"): for a
 * customer's IT admin with no account, only the steps the link grants, for its organization. The
 * token is read from the fragment (never sent in a request line or a Referer), exchanged once for
 * the link's cookie, and taken out of the address bar.
 */

const LINK_DOMAIN_CALLS: DomainCalls = {
  request: authClient.setup.sso.requestDomainVerification,
  verify: authClient.setup.sso.verifyDomain,
};
const PROVIDERS = ["setup-sso-providers"];
const SCIM = ["setup-scim"];
const STREAMS = ["setup-audit-streams"];

/** Opens the link once per page load (StrictMode runs effects twice), else reads the open link's grant. */
function useGrant() {
  const [state, setState] = useState<{ grant: SetupLinkGrant | null; error: AuthClientError | null } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = window.location.hash.slice(1);
    if (token) window.history.replaceState(null, "", window.location.pathname);
    void (token ? authClient.setup.open({ token }) : authClient.setup.grant()).then(({ data, error }) =>
      setState({ grant: data ?? null, error: error ?? null }),
    );
  }, []);
  return state;
}

function TestButton({ providerId }: { providerId: string }) {
  const t = useT();
  const test = useSubmit(authClient.setup.sso.testConnection);
  const [result, setResult] = useState<{ ok: boolean; error: { message: string } | null } | null>(null);
  return (
    <div>
      <Button
        type="button"
        variant="secondary"
        pending={test.pending}
        aria-label={t("connections.test.label", { name: providerId })}
        data-testid="setup-connection-test"
        onClick={async () => setResult((await test.run({ providerId })) ?? null)}
      >
        {t("connections.test")}
      </Button>
      {result && (
        <Notice testId="setup-connection-test-result">
          {result.ok ? t("connections.test.ok") : t("connections.test.failed", { reason: result.error?.message ?? "" })}
        </Notice>
      )}
      <FormError error={test.error} />
    </div>
  );
}

/** The organization's connections: what to enter at the provider, domains to prove, a test. */
function Connections({ scopes }: { scopes: readonly SetupScope[] }) {
  const t = useT();
  const queryClient = useQueryClient();
  const providers = useQuery({ queryKey: PROVIDERS, queryFn: () => unwrap(authClient.setup.sso.providers()) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: PROVIDERS });
  const mayProve = scopes.includes("domains");
  return (
    <Card title={t("setup.connections.title")} testId="setup-connections-card">
      {providers.isPending ? (
        <Loading label={t("connections.loading")} />
      ) : providers.error ? (
        <FormError error={providers.error} />
      ) : providers.data.providers.length === 0 ? (
        <p data-testid="setup-connections-none">{t("connections.none")}</p>
      ) : (
        <ul className="rows" data-testid="setup-connections-list">
          {providers.data.providers.map((c: SSOProviderView) => (
            <li
              key={c.providerId}
              className="row column"
              data-testid="setup-connection"
              data-provider-id={c.providerId}
            >
              <h3>{c.providerId}</h3>
              <p className="hint">{t("connections.issuer", { issuer: c.issuer })}</p>
              <IdpSettings connection={c} />
              {mayProve ? (
                <Domains connection={c} onChanged={refresh} calls={LINK_DOMAIN_CALLS} />
              ) : (
                <p className="hint">{t("setup.domains.notGranted")}</p>
              )}
              {scopes.includes("sso") && <TestButton providerId={c.providerId} />}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function AddConnection() {
  const t = useT();
  const queryClient = useQueryClient();
  const register = useSubmit(authClient.setup.sso.register);
  const [done, setDone] = useState<string | null>(null);
  const [guide, setGuide] = useState<SetupGuide | "">("");
  return (
    <Card title={t("connections.add.title")} testId="setup-add-card">
      <Select
        label={t("setup.guide.pick")}
        testId="setup-guide"
        value={guide}
        onChange={(e) => setGuide(e.target.value as SetupGuide | "")}
      >
        <option value="">{t("setup.guide.none")}</option>
        {SETUP_GUIDES.map((name) => (
          <option key={name} value={name}>
            {t(`setup.guide.${name}.name`)}
          </option>
        ))}
      </Select>
      {guide && (
        <p className="hint" data-testid="setup-guide-text">
          {t(`setup.guide.${guide}`)}
        </p>
      )}
      {done && <Notice testId="setup-add-done">{t("connections.add.done", { name: done })}</Notice>}
      <AddConnectionForm
        apiURL={authClient.apiURL}
        pending={register.pending}
        error={register.error}
        onSubmit={async (connection) => {
          setDone(null);
          const created = await register.run(connection);
          if (!created) return false;
          await queryClient.invalidateQueries({ queryKey: PROVIDERS });
          setDone(created.providerId);
          return true;
        }}
      />
    </Card>
  );
}

/** SCIM: the base URL, the connections and when each last synced, and a token shown once. */
function Directory({ organizationSlug }: { organizationSlug: string | null }) {
  const t = useT();
  const formatDate = useFormatDate();
  const queryClient = useQueryClient();
  const scim = useQuery({ queryKey: SCIM, queryFn: () => unwrap(authClient.setup.scim.connections()) });
  const generate = useSubmit(authClient.setup.scim.generateToken);
  const [providerId, setProviderId] = useState(`${organizationSlug ?? "org"}-scim`);
  const [token, setToken] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = await generate.run({ providerId });
    if (!data) return;
    setToken(data.scimToken);
    await queryClient.invalidateQueries({ queryKey: SCIM });
  };
  return (
    <Card title={t("setup.directory.title")} testId="setup-directory-card">
      {scim.data && (
        <CopyField label={t("directory.token.baseUrl")} value={scim.data.baseURL} testId="setup-scim-base-url" />
      )}
      {token && (
        <>
          <Notice testId="setup-scim-token-once" takeFocus>
            {t("directory.token.once")}
          </Notice>
          <CopyField label={t("directory.token.token")} value={token} testId="setup-scim-token" />
        </>
      )}
      <ul className="rows" data-testid="setup-scim-connections">
        {(scim.data?.providers ?? []).map((c) => (
          <li key={c.providerId} className="row">
            {t("setup.directory.connection", {
              name: c.providerId,
              lastSync: c.lastUsedAt ? formatDate(c.lastUsedAt) : t("directory.connection.never"),
            })}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} aria-label={t("directory.connect.title")} noValidate>
        <Field
          label={t("directory.connect.providerId")}
          hint={t("directory.connect.providerIdHint")}
          testId="setup-scim-provider-id"
          value={providerId}
          onChange={(e) => setProviderId(e.target.value)}
        />
        <FormError error={generate.error ?? scim.error} />
        <Button pending={generate.pending} data-testid="setup-scim-generate">
          {t("directory.connect.submit")}
        </Button>
      </form>
    </Card>
  );
}

/** The audit stream: a receiver URL, its signing secret shown once, its deliveries and a test. */
function AuditStream() {
  const t = useT();
  const formatDate = useFormatDate();
  const queryClient = useQueryClient();
  const streams = useQuery({ queryKey: STREAMS, queryFn: () => unwrap(authClient.setup.auditStream.list()) });
  const create = useSubmit(authClient.setup.auditStream.create);
  const test = useSubmit(authClient.setup.auditStream.test);
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const made = await create.run({ url: url.trim() });
    if (!made) return;
    setSecret(made.secret);
    setUrl("");
    await queryClient.invalidateQueries({ queryKey: STREAMS });
  };
  return (
    <Card title={t("setup.auditStream.title")} testId="setup-audit-stream-card">
      <p>{t("setup.auditStream.intro")}</p>
      {secret && (
        <>
          <Notice testId="setup-audit-secret-once" takeFocus>
            {t("webhooks.secret.once")}
          </Notice>
          <CopyField label={t("webhooks.secret.label")} value={secret} testId="setup-audit-secret" />
        </>
      )}
      {sent && <Notice testId="setup-audit-test-sent">{t("webhooks.test.sent", { id: sent })}</Notice>}
      <ul className="rows" data-testid="setup-audit-streams">
        {(streams.data?.webhooks ?? []).map((w) => (
          <li key={w.id} className="row">
            <span>
              <code>{w.url}</code>{" "}
              {w.lastDeliveryAt
                ? w.lastDeliveryError
                  ? t("webhooks.row.failed", { date: formatDate(w.lastDeliveryAt), error: w.lastDeliveryError })
                  : t("webhooks.row.delivered", { date: formatDate(w.lastDeliveryAt) })
                : t("webhooks.row.never")}
            </span>
            <Button
              type="button"
              variant="secondary"
              pending={test.pending}
              data-testid="setup-audit-test"
              onClick={async () => setSent((await test.run({ webhookId: w.id }))?.deliveryId ?? null)}
            >
              {t("webhooks.row.test")}
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} aria-label={t("setup.auditStream.title")} noValidate>
        <Field
          label={t("webhooks.add.url")}
          hint={t("webhooks.add.urlHint")}
          testId="setup-audit-url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <FormError error={create.error ?? test.error ?? streams.error} />
        <Button pending={create.pending} data-testid="setup-audit-create">
          {t("webhooks.add.submit")}
        </Button>
      </form>
    </Card>
  );
}

export function SetupPage() {
  const t = useT();
  const formatDate = useFormatDate();
  usePageTitle("setup.title");
  const state = useGrant();
  const [closed, setClosed] = useState(false);
  if (!state) return <Loading />;
  if (!state.grant || closed)
    return (
      <main className="page narrow">
        <Card title={t("setup.invalid.title")} testId="setup-invalid">
          <p>{t(closed ? "setup.closed" : "setup.invalid.body")}</p>
        </Card>
      </main>
    );
  const { grant } = state;
  return (
    <main className="page" data-testid="setup-page">
      <Card title={t("setup.heading", { organization: grant.organization.name })} testId="setup-grant">
        <p>{t("setup.intro")}</p>
        <p className="hint" data-testid="setup-expires">
          {t("setup.expires", { date: formatDate(grant.expiresAt) })}
        </p>
        <Button
          type="button"
          variant="secondary"
          data-testid="setup-close"
          onClick={async () => {
            await authClient.setup.close();
            setClosed(true);
          }}
        >
          {t("setup.close")}
        </Button>
      </Card>
      {grant.scopes.includes("sso") && <AddConnection />}
      {(grant.scopes.includes("sso") || grant.scopes.includes("domains")) && <Connections scopes={grant.scopes} />}
      {grant.scopes.includes("directory") && <Directory organizationSlug={grant.organization.slug} />}
      {grant.scopes.includes("auditStream") && <AuditStream />}
    </main>
  );
}
