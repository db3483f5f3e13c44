import { type TextareaHTMLAttributes, useId, useState } from "react";
import type { SSOProviderView } from "../../contract/sso.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import type { FieldMessage } from "../lib/schemas.js";
import { FormFooter } from "./form-state.js";
import { Field, Form, Select } from "./ui.js";

/** A labelled multi-line input (metadata XML, a certificate), shaped like Field. */
export function TextArea({
  label,
  hint,
  error,
  testId,
  ...area
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  hint?: string;
  error?: FieldMessage;
  testId: string;
}) {
  const id = useId();
  const t = useT();
  const describedBy = [error ? `${id}-error` : "", hint && !error ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        data-testid={testId}
        rows={5}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...area}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>
          {t(error.key, error.vars)}
        </p>
      )}
    </div>
  );
}

export type NewConnection =
  | {
      providerId: string;
      domain: string;
      issuer: string;
      oidcConfig: { clientId: string; clientSecret: string; scopes: string[] };
    }
  | {
      providerId: string;
      domain: string;
      issuer: string;
      samlConfig: { idpMetadata: { metadata: string } } | { entryPoint: string; cert: string };
    };

const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Adds an OpenID Connect or SAML connection. What the IdP's admin must register (the redirect URI,
 * or the ACS URL and SP metadata) is shown as the id is typed: they need it before they can hand
 * over the client id and secret.
 */
export function AddConnectionForm({
  apiURL,
  onSubmit,
  pending,
  error,
}: {
  apiURL: string;
  onSubmit: (connection: NewConnection) => Promise<boolean>;
  pending: boolean;
  error: HasCode | null;
}) {
  const t = useT();
  const [kind, setKind] = useState<"oidc" | "saml">("oidc");
  const [samlSource, setSamlSource] = useState<"metadata" | "manual">("metadata");
  const empty = {
    providerId: "",
    domain: "",
    issuer: "",
    clientId: "",
    clientSecret: "",
    scopes: "openid email profile",
    metadata: "",
    entityId: "",
    entryPoint: "",
    cert: "",
  };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof empty, FieldMessage>>>({});
  const field = (key: keyof typeof empty) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });
  const required: (keyof typeof empty)[] =
    kind === "oidc"
      ? ["providerId", "domain", "issuer", "clientId", "clientSecret"]
      : samlSource === "metadata"
        ? ["providerId", "domain", "metadata"]
        : ["providerId", "domain", "entityId", "entryPoint", "cert"];
  const id = values.providerId.trim();
  const encoded = encodeURIComponent(id || "<id>");
  const submit = async () => {
    const found: typeof errors = {};
    for (const key of required) if (!values[key].trim()) found[key] = { key: "connections.add.required" };
    if (id && !PROVIDER_ID.test(id)) found.providerId = { key: "connections.add.providerIdHint" };
    setErrors(found);
    if (Object.keys(found).length) return;
    const common = { providerId: id, domain: values.domain.trim() };
    const connection: NewConnection =
      kind === "oidc"
        ? {
            ...common,
            issuer: values.issuer.trim(),
            oidcConfig: {
              clientId: values.clientId.trim(),
              clientSecret: values.clientSecret,
              scopes: values.scopes.split(/[\s,]+/).filter(Boolean),
            },
          }
        : samlSource === "metadata"
          ? // The metadata names the IdP's entity id; the server reads it from there.
            {
              ...common,
              issuer: "urn:gatehouse:from-metadata",
              samlConfig: { idpMetadata: { metadata: values.metadata } },
            }
          : {
              ...common,
              issuer: values.entityId.trim(),
              samlConfig: { entryPoint: values.entryPoint.trim(), cert: values.cert },
            };
    if (await onSubmit(connection)) setValues(empty);
  };
  return (
    <Form
      aria-label={t("connections.add.form")}
      error={error}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Select
        label={t("connections.add.type")}
        testId="connection-add-type"
        value={kind}
        onChange={(e) => setKind(e.target.value as "oidc" | "saml")}
      >
        <option value="oidc">{t("connections.type.oidc")}</option>
        <option value="saml">{t("connections.type.saml")}</option>
      </Select>
      <Field
        label={t("connections.add.providerId")}
        hint={t("connections.add.providerIdHint")}
        testId="connection-add-id"
        autoComplete="off"
        {...field("providerId")}
      />
      <Field
        label={t("connections.add.domains")}
        hint={t("connections.add.domainsHint")}
        testId="connection-add-domains"
        autoComplete="off"
        {...field("domain")}
      />
      {kind === "oidc" ? (
        <>
          <Field
            label={t("connections.add.issuer")}
            testId="connection-add-issuer"
            type="url"
            autoComplete="off"
            {...field("issuer")}
          />
          <Field
            label={t("connections.add.clientId")}
            testId="connection-add-client-id"
            autoComplete="off"
            {...field("clientId")}
          />
          <Field
            label={t("connections.add.clientSecret")}
            testId="connection-add-client-secret"
            type="password"
            autoComplete="off"
            {...field("clientSecret")}
          />
          <Field label={t("connections.add.scopes")} testId="connection-add-scopes" {...field("scopes")} />
        </>
      ) : (
        <>
          <Select
            label={t("connections.add.samlSource")}
            testId="connection-add-saml-source"
            value={samlSource}
            onChange={(e) => setSamlSource(e.target.value as "metadata" | "manual")}
          >
            <option value="metadata">{t("connections.add.samlMetadata")}</option>
            <option value="manual">{t("connections.add.samlManual")}</option>
          </Select>
          {samlSource === "metadata" ? (
            <TextArea label={t("connections.add.metadata")} testId="connection-add-metadata" {...field("metadata")} />
          ) : (
            <>
              <Field
                label={t("connections.add.entityId")}
                testId="connection-add-entity-id"
                autoComplete="off"
                {...field("entityId")}
              />
              <Field
                label={t("connections.add.entryPoint")}
                testId="connection-add-entry-point"
                type="url"
                autoComplete="off"
                {...field("entryPoint")}
              />
              <TextArea label={t("connections.add.cert")} testId="connection-add-cert" {...field("cert")} />
            </>
          )}
        </>
      )}
      <div className="connection-preview" data-testid="connection-add-preview">
        <p>{t("connections.add.preview")}</p>
        {kind === "oidc" ? (
          <IdpValue label={t("connections.redirectURI")} value={`${apiURL}/sso/callback/${encoded}`} />
        ) : (
          <>
            <IdpValue label={t("connections.acsURL")} value={`${apiURL}/sso/saml2/callback/${encoded}`} />
            <IdpValue
              label={t("connections.spMetadataURL")}
              value={`${apiURL}/sso/saml2/sp/metadata?providerId=${encoded}`}
            />
          </>
        )}
      </div>
      <FormFooter error={error} pending={pending} testId="connection-add-submit">
        {t("connections.add.submit")}
      </FormFooter>
    </Form>
  );
}

/** One value an IdP admin copies: a label and the value in a selectable code element. */
export function IdpValue({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="idp-value">
      <span>{label}</span> <code data-testid={testId}>{value}</code>
    </div>
  );
}

export interface ConnectionChange {
  providerId: string;
  domain?: string;
  oidcConfig?: { clientId?: string; clientSecret?: string; scopes?: string[] };
  samlConfig?: { entryPoint?: string; cert?: string };
}

/** Changes a connection's domains and its IdP side; an empty secret or certificate keeps the current one. */
export function EditConnectionForm({
  connection,
  onSubmit,
  pending,
  error,
}: {
  connection: SSOProviderView;
  onSubmit: (change: ConnectionChange) => unknown;
  pending: boolean;
  error: HasCode | null;
}) {
  const t = useT();
  const [values, setValues] = useState({
    domain: connection.domain,
    clientId: "",
    clientSecret: "",
    scopes: connection.oidcConfig?.scopes.join(" ") ?? "",
    entryPoint: connection.samlConfig?.entryPoint ?? "",
    cert: "",
  });
  const field = (key: keyof typeof values) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });
  const name = connection.providerId;
  const submit = () => {
    const change: ConnectionChange = { providerId: name, domain: values.domain.trim() };
    if (connection.type === "oidc") {
      change.oidcConfig = {
        scopes: values.scopes.split(/[\s,]+/).filter(Boolean),
        ...(values.clientId.trim() ? { clientId: values.clientId.trim() } : {}),
        ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
      };
    } else {
      change.samlConfig = {
        entryPoint: values.entryPoint.trim(),
        ...(values.cert.trim() ? { cert: values.cert } : {}),
      };
    }
    void onSubmit(change);
  };
  return (
    <Form
      aria-label={t("connections.edit.form", { name })}
      error={error}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Field label={t("connections.add.domains")} testId="connection-edit-domains" {...field("domain")} />
      {connection.type === "oidc" ? (
        <>
          <Field
            label={t("connections.add.clientId")}
            hint={`…${connection.oidcConfig?.clientIdLastFour ?? ""}`}
            testId="connection-edit-client-id"
            autoComplete="off"
            {...field("clientId")}
          />
          <Field
            label={t("connections.add.clientSecret")}
            hint={t("connections.edit.secretHint")}
            testId="connection-edit-client-secret"
            type="password"
            autoComplete="off"
            {...field("clientSecret")}
          />
          <Field label={t("connections.add.scopes")} testId="connection-edit-scopes" {...field("scopes")} />
        </>
      ) : (
        <>
          <Field
            label={t("connections.add.entryPoint")}
            testId="connection-edit-entry-point"
            type="url"
            {...field("entryPoint")}
          />
          <TextArea
            label={t("connections.add.cert")}
            hint={t("connections.edit.certHint")}
            testId="connection-edit-cert"
            {...field("cert")}
          />
        </>
      )}
      <FormFooter error={error} pending={pending} testId="connection-edit-submit">
        {t("common.save")}
      </FormFooter>
    </Form>
  );
}
