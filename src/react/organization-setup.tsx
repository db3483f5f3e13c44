import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AuthClient, Result } from "../client/index.js";
import type { ScimConnection, ScimConnectionHealth } from "../contract/scim.js";
import { SETUP_GUIDES, type SetupGuide, type SetupScope } from "../contract/setup-links.js";
import type { SSOProviderView, SSOTestResult } from "../contract/sso.js";
import {
  Button,
  ComponentRoot,
  ErrorMessage,
  Field,
  Form,
  Loading,
  Notice,
  Panel,
  TextArea,
  useFrame,
} from "./form-parts.js";
import { componentTranslator } from "./localization.js";
import { messageFor } from "./messages.js";
import { browserNavigate } from "./navigate.js";
import { type OrganizationComponentProps, RowButton, SelectField } from "./organization-parts.js";
import { useActiveOrganization, useAuthClient } from "./provider.js";
import { ScimHealthView } from "./scim-health-view.js";
import { useCall } from "./use-call.js";

export interface OrganizationSetupProps extends OrganizationComponentProps {
  /**
   * A setup link's token (docs/sso.md, "Let the customer set it up"): the component opens the link
   * and shows the steps it grants; `""` when this browser opened the link already (the page was
   * reloaded, or came back from a test sign-in). Without one, the signed-in owner sets up
   * `organizationId` (default: the active organization) through the owners' own routes.
   */
  token?: string;
  organizationId?: string;
  /** The steps to show, of those allowed (default: all the link grants; for an owner, all three). */
  steps?: readonly SetupScope[];
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

type NewConnection = {
  providerId: string;
  issuer: string;
  /** Comma separated, as the server reads it. */
  domain: string;
  oidcConfig?: { clientId: string; clientSecret: string };
  samlConfig?: { idpMetadata: { metadata: string } };
};
type Check = { ok: boolean; error: { code: string; message: string } | null };
type Records = { records: { name: string; value: string }[] };
type Verified = { verified: boolean; domains: { domain: string; verified: boolean }[] };

/** The steps' calls: the link's `/setup/` routes, or the owners' own for one organization. */
interface SetupApi {
  providers(): Promise<Result<SSOProviderView[]>>;
  register(body: NewConnection): Promise<Result<SSOProviderView>>;
  test(arg: { providerId: string }): Promise<Result<Check>>;
  requestDomain(arg: { providerId: string }): Promise<Result<Records>>;
  verifyDomain(arg: { providerId: string }): Promise<Result<Verified>>;
  testSignIn(arg: { providerId: string; callbackURL: string }): Promise<Result<{ url: string }>>;
  testResult(arg: { testId: string }): Promise<Result<SSOTestResult>>;
  directory(): Promise<Result<{ baseURL: string; providers: ScimConnection[] }>>;
  health(arg: { providerId: string }): Promise<Result<ScimConnectionHealth>>;
  generateToken(arg: { providerId: string }): Promise<Result<{ scimToken: string }>>;
}

const mapResult = async <T, U>(call: Promise<Result<T>>, map: (data: T) => U): Promise<Result<U>> => {
  const answer = await call;
  return answer.error ? answer : { data: map(answer.data), error: null };
};

function linkApi(client: AuthClient): SetupApi {
  const { sso, scim } = client.setup;
  return {
    providers: () => mapResult(sso.providers(), (d) => d.providers),
    register: (body) => sso.register(body),
    test: (arg) => sso.testConnection(arg),
    requestDomain: (arg) => sso.requestDomainVerification(arg),
    verifyDomain: (arg) => sso.verifyDomain(arg),
    testSignIn: (arg) => sso.testSignIn(arg),
    testResult: (arg) => sso.testSignIn.result({ query: arg }),
    directory: () => scim.connections(),
    health: (arg) => scim.connectionHealth({ query: arg }),
    generateToken: (arg) => scim.generateToken(arg),
  };
}

function ownerApi(client: AuthClient, organizationId: string): SetupApi {
  return {
    // The owners' lists answer every organization they manage: the component shows this one's.
    providers: () =>
      mapResult(client.sso.providers(), (d) => d.providers.filter((p) => p.organizationId === organizationId)),
    register: (body) => client.sso.register({ ...body, organizationId }),
    test: (arg) => client.sso.testConnection(arg),
    requestDomain: (arg) => client.sso.requestDomainVerification(arg),
    verifyDomain: (arg) => client.sso.verifyDomain(arg),
    testSignIn: (arg) => client.sso.testSignIn(arg),
    testResult: (arg) => client.sso.testSignIn.result({ query: arg }),
    health: (arg) => client.scim.connectionHealth({ query: arg }),
    directory: () =>
      mapResult(client.scim.listProviderConnections(), (d) => ({
        baseURL: `${client.apiURL}/scim/v2`,
        providers: d.providers.filter((p) => p.organizationId === organizationId),
      })),
    generateToken: (arg) => client.scim.generateToken({ ...arg, organizationId }),
  };
}

interface Grant {
  organizationName: string;
  organizationSlug: string | null;
  scopes: readonly SetupScope[];
  expiresAt: Date | null;
}

/** The link's grant (opened once per mount: StrictMode runs effects twice), or the owner's whole setup. */
function useGrant(client: AuthClient, token: string | undefined, organizationId: string | undefined) {
  const active = useActiveOrganization();
  const [linkGrant, setLinkGrant] = useState<Result<Grant> | null>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (token === undefined || opened.current) return;
    opened.current = true;
    void mapResult(token ? client.setup.open({ token }) : client.setup.grant(), (g) => ({
      organizationName: g.organization.name,
      organizationSlug: g.organization.slug,
      scopes: g.scopes,
      expiresAt: g.expiresAt,
    })).then(setLinkGrant);
  }, [client, token]);
  const id = organizationId ?? active.data?.id;
  const api = useMemo(
    () => (token !== undefined ? linkApi(client) : id ? ownerApi(client, id) : null),
    [client, token, id],
  );
  if (token !== undefined) return { grant: linkGrant, api };
  const organization = active.data;
  if (!id || !organization) return { grant: null, api: null };
  const grant: Result<Grant> = {
    data: {
      organizationName: organization.name,
      organizationSlug: organization.slug,
      scopes: ["domains", "sso", "directory"],
      expiresAt: null,
    },
    error: null,
  };
  return { grant, api };
}

function Value({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <p>
      {label}
      <br />
      <code data-testid={testId}>{value}</code>
    </p>
  );
}

/** What the identity provider's admin enters, known from the connection's id alone. */
function ProviderValues({ apiURL, providerId, kind }: { apiURL: string; providerId: string; kind: "oidc" | "saml" }) {
  const { t } = useFrame();
  const id = encodeURIComponent(providerId || "<id>");
  if (kind === "oidc")
    return (
      <Value label={t("connections.redirectURI")} value={`${apiURL}/sso/callback/${id}`} testId="setup-redirect-uri" />
    );
  const metadataURL = `${apiURL}/sso/saml2/sp/metadata?providerId=${id}`;
  return (
    <>
      <Value label={t("connections.acsURL")} value={`${apiURL}/sso/saml2/callback/${id}`} testId="setup-acs-url" />
      <Value label={t("connections.spEntityId")} value={metadataURL} testId="setup-sp-entity-id" />
      <Value label={t("connections.spMetadataURL")} value={metadataURL} testId="setup-sp-metadata-url" />
    </>
  );
}

function AddConnection({ api, apiURL, onAdded }: { api: SetupApi; apiURL: string; onAdded: () => void }) {
  const { t } = useFrame();
  const register = useCall(api.register);
  const [kind, setKind] = useState<"oidc" | "saml">("oidc");
  const empty = { providerId: "", domains: "", issuer: "", clientId: "", clientSecret: "", metadata: "" };
  const [values, setValues] = useState(empty);
  const [added, setAdded] = useState<string | null>(null);
  const [guide, setGuide] = useState<SetupGuide | "">("");
  const set = (key: keyof typeof empty) => (value: string) => setValues({ ...values, [key]: value });
  const onSubmit = async () => {
    setAdded(null);
    const created = await register.run({
      providerId: values.providerId.trim(),
      issuer: kind === "oidc" ? values.issuer.trim() : "urn:gatehouse:from-metadata",
      domain: values.domains,
      ...(kind === "oidc"
        ? { oidcConfig: { clientId: values.clientId.trim(), clientSecret: values.clientSecret } }
        : { samlConfig: { idpMetadata: { metadata: values.metadata } } }),
    });
    if (!created) return;
    setValues(empty);
    setAdded(created.providerId);
    onAdded();
  };
  return (
    <Panel title={t("connections.add.title")} testId="setup-add">
      {added && <Notice testId="setup-added">{t("connections.add.done", { name: added })}</Notice>}
      <SelectField
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
      </SelectField>
      {guide && (
        <p className="gh-hint" data-testid="setup-guide-text">
          {t(`setup.guide.${guide}`)}
        </p>
      )}
      <Form label={t("connections.add.form")} error={register.error} onSubmit={() => void onSubmit()}>
        <SelectField
          label={t("connections.add.type")}
          testId="setup-add-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value === "saml" ? "saml" : "oidc")}
        >
          <option value="oidc">{t("connections.type.oidc")}</option>
          <option value="saml">{t("connections.type.saml")}</option>
        </SelectField>
        <Field
          label={t("connections.add.providerId")}
          hint={t("connections.add.providerIdHint")}
          testId="setup-add-id"
          value={values.providerId}
          onChange={(e) => set("providerId")(e.target.value)}
        />
        <Field
          label={t("connections.add.domains")}
          hint={t("connections.add.domainsHint")}
          testId="setup-add-domains"
          value={values.domains}
          onChange={(e) => set("domains")(e.target.value)}
        />
        {kind === "oidc" ? (
          <>
            <Field
              label={t("connections.add.issuer")}
              testId="setup-add-issuer"
              value={values.issuer}
              onChange={(e) => set("issuer")(e.target.value)}
            />
            <Field
              label={t("connections.add.clientId")}
              testId="setup-add-client-id"
              value={values.clientId}
              onChange={(e) => set("clientId")(e.target.value)}
            />
            <Field
              label={t("connections.add.clientSecret")}
              type="password"
              autoComplete="off"
              testId="setup-add-client-secret"
              value={values.clientSecret}
              onChange={(e) => set("clientSecret")(e.target.value)}
            />
          </>
        ) : (
          <TextArea
            label={t("connections.add.metadata")}
            testId="setup-add-metadata"
            value={values.metadata}
            onChange={set("metadata")}
          />
        )}
        <h3 className="gh-label">{t("connections.add.preview")}</h3>
        <ProviderValues apiURL={apiURL} providerId={values.providerId.trim()} kind={kind} />
        <ErrorMessage error={register.error} />
        <Button pending={register.pending} data-testid="setup-add-submit">
          {t("connections.add.submit")}
        </Button>
      </Form>
    </Panel>
  );
}

function ConnectionDomains({
  api,
  connection,
  onChanged,
}: {
  api: SetupApi;
  connection: SSOProviderView;
  onChanged: () => void;
}) {
  const { t } = useFrame();
  const request = useCall(api.requestDomain);
  const verify = useCall(api.verifyDomain);
  const [records, setRecords] = useState<Records["records"] | null>(null);
  const providerId = connection.providerId;
  const pending = connection.domains.some((d) => !d.verified);
  return (
    <div>
      <ul data-testid="setup-domains">
        {connection.domains.map((d) => (
          <li key={d.domain} data-testid="setup-domain" data-verified={d.verified}>
            {t(d.verified ? "connections.domain.verified" : "connections.domain.unverified", { domain: d.domain })}
          </li>
        ))}
      </ul>
      {pending && !records && (
        <RowButton
          data-testid="setup-domain-show"
          onClick={async () => setRecords((await request.run({ providerId }))?.records ?? null)}
        >
          {t("connections.domain.show")}
        </RowButton>
      )}
      {pending && records && (
        <>
          <p>{t("connections.domain.instructions")}</p>
          {records.map((r) => (
            <p key={r.name}>
              {t("connections.domain.recordName")}: <code data-testid="setup-record-name">{r.name}</code>
              <br />
              {t("connections.domain.recordValue")}: <code data-testid="setup-record-value">{r.value}</code>
            </p>
          ))}
          <RowButton
            variant="primary"
            data-testid="setup-domain-verify"
            onClick={async () => {
              if (await verify.run({ providerId })) {
                setRecords(null);
                onChanged();
              }
            }}
          >
            {t("connections.domain.verify")}
          </RowButton>
        </>
      )}
      <ErrorMessage error={request.error ?? verify.error} testId="setup-domain-error" />
    </div>
  );
}

/** The page's own address, to come back to from a test sign-in (without a previous test's marks). */
function returnAddress(): string {
  const url = new URL(window.location.href);
  url.hash = "";
  for (const name of ["ssoTestId", "error", "error_description"]) url.searchParams.delete(name);
  return url.toString();
}

/** A test sign-in the browser came back from (`?ssoTestId=`, or `?error=` when none was recorded), read once. */
function useTestSignInResult(api: SetupApi) {
  const [result, setResult] = useState<Result<SSOTestResult> | null>(null);
  const read = useRef(false);
  useEffect(() => {
    if (read.current) return;
    read.current = true;
    const url = new URL(window.location.href);
    const testId = url.searchParams.get("ssoTestId");
    const error = url.searchParams.get("error");
    if (!testId && !error) return;
    for (const name of ["ssoTestId", "error", "error_description"]) url.searchParams.delete(name);
    window.history.replaceState(window.history.state, "", url.toString());
    if (testId) void api.testResult({ testId }).then(setResult);
    else setResult({ data: null, error: { code: error ?? "", message: "" } } as Result<SSOTestResult>);
  }, [api]);
  return result;
}

function TestSignInResult({ result }: { result: SSOTestResult }) {
  const { t } = useFrame();
  const none = t("setup.testSignIn.none");
  return (
    <div
      data-testid="setup-test-sign-in-result"
      data-provider-id={result.providerId}
      data-refusal={result.refusal ?? ""}
    >
      <Notice testId="setup-test-sign-in-verdict" takeFocus>
        {result.refusal
          ? t("setup.testSignIn.refused", { reason: `${messageFor(result.refusal, t)} (${result.refusal})` })
          : t("setup.testSignIn.passed")}
      </Notice>
      <ul>
        <li data-testid="setup-test-sign-in-email">{t("setup.testSignIn.email", { email: result.email ?? none })}</li>
        <li>{t("setup.testSignIn.name", { name: result.name ?? none })}</li>
        <li data-testid="setup-test-sign-in-role">{t("setup.testSignIn.role", { role: result.role ?? none })}</li>
        <li>{t(result.domainVerified ? "setup.testSignIn.domainVerified" : "setup.testSignIn.domainUnverified")}</li>
      </ul>
      {result.claims && (
        <details>
          <summary>{t("setup.testSignIn.claims")}</summary>
          <pre className="gh-code-block" data-testid="setup-test-sign-in-claims">
            {JSON.stringify(result.claims, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}

function Connections({
  api,
  scopes,
  version,
  onChanged,
}: {
  api: SetupApi;
  scopes: readonly SetupScope[];
  version: number;
  onChanged: () => void;
}) {
  const { t } = useFrame();
  const list = useCall(api.providers);
  const test = useCall(api.test);
  const testSignIn = useCall(api.testSignIn);
  const tested = useTestSignInResult(api);
  const [connections, setConnections] = useState<SSOProviderView[] | null>(null);
  const [checked, setChecked] = useState<{ providerId: string; check: Check } | null>(null);
  const { run } = list;
  // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for the list again
  useEffect(() => {
    void run().then((found) => found && setConnections(found));
  }, [run, version]);
  if (!connections) return list.error ? <ErrorMessage error={list.error} /> : <Loading />;
  return (
    <Panel title={t("setup.connections.title")} testId="setup-connections">
      {connections.length === 0 && <p>{t("connections.none")}</p>}
      {connections.map((c) => (
        <section key={c.providerId} data-testid="setup-connection" data-provider-id={c.providerId}>
          <h3 className="gh-label">{c.providerId}</h3>
          <p className="gh-hint">{t("connections.issuer", { issuer: c.issuer })}</p>
          <p className="gh-label">{t("connections.idpNeeds")}</p>
          {c.samlConfig ? (
            <>
              <Value label={t("connections.acsURL")} value={c.samlConfig.callbackUrl} testId="setup-acs-url" />
              <Value label={t("connections.spEntityId")} value={c.samlConfig.audience} testId="setup-sp-entity-id" />
              <Value
                label={t("connections.spMetadataURL")}
                value={c.samlConfig.spMetadataURL}
                testId="setup-sp-metadata-url"
              />
            </>
          ) : (
            <Value label={t("connections.redirectURI")} value={c.redirectURI} testId="setup-redirect-uri" />
          )}
          {scopes.includes("domains") ? (
            <ConnectionDomains api={api} connection={c} onChanged={onChanged} />
          ) : (
            <p className="gh-hint">{t("setup.domains.notGranted")}</p>
          )}
          {scopes.includes("sso") && (
            <RowButton
              data-testid="setup-test"
              onClick={async () => {
                const check = await test.run({ providerId: c.providerId });
                if (check) setChecked({ providerId: c.providerId, check });
              }}
            >
              {t("connections.test")}
            </RowButton>
          )}
          {checked?.providerId === c.providerId && (
            <Notice testId="setup-test-result">
              {checked.check.ok
                ? t("connections.test.ok")
                : t("connections.test.failed", { reason: checked.check.error?.message ?? "" })}
            </Notice>
          )}
          {scopes.includes("sso") && (
            <RowButton
              data-testid="setup-test-sign-in"
              aria-label={t("setup.testSignIn.label", { name: c.providerId })}
              // The reply is `{ redirect: true, url }`: the client follows it to the provider's sign-in
              // page (once: a second navigation here started a second request at the provider), and
              // the provider sends the browser back here with the result.
              onClick={() => testSignIn.run({ providerId: c.providerId, callbackURL: returnAddress() })}
            >
              {t("setup.testSignIn")}
            </RowButton>
          )}
          {tested?.data?.providerId === c.providerId && <TestSignInResult result={tested.data} />}
        </section>
      ))}
      <ErrorMessage error={test.error ?? testSignIn.error ?? tested?.error ?? null} />
    </Panel>
  );
}

/** A directory connection's sync: what it provisioned, its last call, its latest refused calls. */
function DirectoryHealth({ api, providerId }: { api: SetupApi; providerId: string }) {
  const { t, locale } = useFrame();
  const read = useCall(api.health);
  const [health, setHealth] = useState<ScimConnectionHealth | null>(null);
  const { run } = read;
  useEffect(() => {
    void run({ providerId }).then((found) => found && setHealth(found));
  }, [run, providerId]);
  if (!health) return <ErrorMessage error={read.error} />;
  return (
    <div data-testid="setup-scim-health" data-provider-id={providerId}>
      <ScimHealthView health={health} t={t} formatDate={(d) => d.toLocaleString(locale)} testIdPrefix="setup-" />
    </div>
  );
}

function Directory({ api, slug }: { api: SetupApi; slug: string | null }) {
  const { t } = useFrame();
  const list = useCall(api.directory);
  const generate = useCall(api.generateToken);
  const [directory, setDirectory] = useState<{ baseURL: string; providers: ScimConnection[] } | null>(null);
  const [providerId, setProviderId] = useState(`${slug ?? "org"}-scim`);
  const [token, setToken] = useState<string | null>(null);
  const { run } = list;
  const load = useCallback(() => void run().then((found) => found && setDirectory(found)), [run]);
  useEffect(load, [load]);
  return (
    <Panel title={t("setup.directory.title")} testId="setup-directory">
      {directory && (
        <Value label={t("directory.token.baseUrl")} value={directory.baseURL} testId="setup-scim-base-url" />
      )}
      {token && (
        <>
          <Notice testId="setup-scim-token-once" takeFocus>
            {t("directory.token.once")}
          </Notice>
          <Value label={t("directory.token.token")} value={token} testId="setup-scim-token" />
        </>
      )}
      <ul>
        {(directory?.providers ?? []).map((c) => (
          <li key={c.providerId}>
            {t("setup.directory.connection", {
              name: c.providerId,
              lastSync: c.lastUsedAt ? c.lastUsedAt.toLocaleString() : t("directory.connection.never"),
            })}
            <DirectoryHealth api={api} providerId={c.providerId} />
          </li>
        ))}
      </ul>
      <Form
        label={t("directory.connect.title")}
        error={generate.error ?? list.error}
        onSubmit={async () => {
          const made = await generate.run({ providerId: providerId.trim() });
          if (made) {
            setToken(made.scimToken);
            load();
          }
        }}
      >
        <Field
          label={t("directory.connect.providerId")}
          hint={t("directory.connect.providerIdHint")}
          testId="setup-scim-provider-id"
          value={providerId}
          onChange={(e) => setProviderId(e.target.value)}
        />
        <ErrorMessage error={generate.error ?? list.error} />
        <Button pending={generate.pending} data-testid="setup-scim-generate">
          {t("directory.connect.submit")}
        </Button>
      </Form>
    </Panel>
  );
}

/** The audit stream (a link granted auditStream): a receiver URL, its secret shown once, a test delivery. */
function AuditStream({ client }: { client: AuthClient }) {
  const { t } = useFrame();
  const create = useCall(client.setup.auditStream.create);
  const test = useCall(client.setup.auditStream.test);
  const list = useCall(client.setup.auditStream.list);
  const [streams, setStreams] = useState<
    { url: string; lastDeliveryAt: Date | null; lastDeliveryError: string | null; id: string }[]
  >([]);
  const { run: load } = list;
  const reload = useCallback(() => void load().then((found) => found && setStreams(found.webhooks)), [load]);
  useEffect(reload, [reload]);
  const [url, setUrl] = useState("");
  const [made, setMade] = useState<{ id: string; secret: string } | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <Panel title={t("setup.auditStream.title")} testId="setup-audit-stream">
      <p>{t("setup.auditStream.intro")}</p>
      {made && (
        <>
          <Notice testId="setup-audit-secret-once" takeFocus>
            {t("webhooks.secret.once")}
          </Notice>
          <Value label={t("webhooks.secret.label")} value={made.secret} testId="setup-audit-secret" />
          <RowButton
            data-testid="setup-audit-test"
            onClick={async () => {
              setSent((await test.run({ webhookId: made.id }))?.deliveryId ?? null);
              reload();
            }}
          >
            {t("webhooks.row.test")}
          </RowButton>
        </>
      )}
      {sent && <Notice testId="setup-audit-test-sent">{t("webhooks.test.sent", { id: sent })}</Notice>}
      <ul data-testid="setup-audit-streams">
        {streams.map((w) => (
          <li key={w.id}>
            <code>{w.url}</code>{" "}
            {w.lastDeliveryAt
              ? w.lastDeliveryError
                ? t("webhooks.row.failed", { date: w.lastDeliveryAt.toLocaleString(), error: w.lastDeliveryError })
                : t("webhooks.row.delivered", { date: w.lastDeliveryAt.toLocaleString() })
              : t("webhooks.row.never")}
          </li>
        ))}
      </ul>
      <Form
        label={t("setup.auditStream.title")}
        error={create.error ?? test.error}
        onSubmit={async () => {
          const answer = await create.run({ url: url.trim() });
          if (answer) {
            setMade({ id: answer.id, secret: answer.secret });
            setUrl("");
            reload();
          }
        }}
      >
        <Field
          label={t("webhooks.add.url")}
          hint={t("webhooks.add.urlHint")}
          testId="setup-audit-url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <ErrorMessage error={create.error ?? test.error} />
        <Button pending={create.pending} data-testid="setup-audit-create">
          {t("webhooks.add.submit")}
        </Button>
      </Form>
    </Panel>
  );
}

/**
 * Self-serve setup of an organization's single sign-on, domains and directory (docs/sso.md, "Let
 * the customer set it up"): for the holder of a setup link (`token`), only what it grants; for the
 * signed-in owner, every step. The same steps as the app's /setup page.
 *
 * @example
 * // The IT admin's page: the link's token from the address's fragment.
 * <OrganizationSetup token={location.hash.slice(1)} />
 * // An owner inside the app: every step for the active organization.
 * <OrganizationSetup headingLevel={2} />
 */
export function OrganizationSetup({
  token,
  organizationId,
  steps,
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  headingLevel,
}: OrganizationSetupProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const { grant, api } = useGrant(client, token, organizationId);
  const [version, setVersion] = useState(0);
  const [closed, setClosed] = useState(false);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  const frame = { t, navigate, locale: localization, appearance, headingLevel };
  let body: ReactNode;
  let title = t("setup.title");
  if (closed) body = <p data-testid="setup-closed">{t("setup.closed")}</p>;
  else if (!grant) body = <Loading />;
  else if (grant.error || !api)
    body = (
      <p data-testid="setup-invalid">
        {t("setup.invalid.title")}. {t("setup.invalid.body")}
      </p>
    );
  else {
    const { organizationName, organizationSlug, expiresAt } = grant.data;
    const scopes = steps ? grant.data.scopes.filter((scope) => steps.includes(scope)) : grant.data.scopes;
    title = t("setup.heading", { organization: organizationName });
    body = (
      <>
        {token !== undefined && <p>{t("setup.intro")}</p>}
        {expiresAt && (
          <p className="gh-hint" data-testid="setup-expires">
            {t("setup.expires", { date: expiresAt.toLocaleString(localization) })}
          </p>
        )}
        {scopes.includes("sso") && <AddConnection api={api} apiURL={client.apiURL} onAdded={refresh} />}
        {(scopes.includes("sso") || scopes.includes("domains")) && (
          <Connections api={api} scopes={scopes} version={version} onChanged={refresh} />
        )}
        {scopes.includes("directory") && <Directory api={api} slug={organizationSlug} />}
        {token !== undefined && scopes.includes("auditStream") && <AuditStream client={client} />}
        {token !== undefined && (
          <RowButton
            data-testid="setup-close"
            onClick={async () => {
              await client.setup.close();
              setClosed(true);
            }}
          >
            {t("setup.close")}
          </RowButton>
        )}
      </>
    );
  }
  return (
    <ComponentRoot {...frame} title={title} testId="organization-setup">
      {body}
    </ComponentRoot>
  );
}
