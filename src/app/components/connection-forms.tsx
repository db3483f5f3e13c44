import { type TextareaHTMLAttributes, useId, useRef, useState } from "react";
import type { SSOProviderView } from "../../contract/sso.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import { roleLabel } from "../lib/permissions.js";
import type { FieldMessage } from "../lib/schemas.js";
import { FormFooter } from "./form-state.js";
import { Button, Field, Form, Select } from "./ui.js";

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
  defaultRole?: string;
  roleMapping?: { claim: string; values: Record<string, string> } | null;
}

interface RoleRule {
  /** A key for React only: rules have no id of their own. */
  key: number;
  value: string;
  role: string;
}

/**
 * The roles a connection gives on joining (and, with rules, at every sign-in; docs/sso.md section 4):
 * the default role, and "value of the claim/attribute -> role" rules, the first match winning.
 */
function RoleMappingFields({
  type,
  roles,
  defaultRole,
  setDefaultRole,
  claim,
  setClaim,
  rules,
  setRules,
  errors,
}: {
  type: SSOProviderView["type"];
  roles: string[];
  defaultRole: string;
  setDefaultRole: (role: string) => void;
  claim: string;
  setClaim: (claim: string) => void;
  rules: RoleRule[];
  setRules: (rules: RoleRule[]) => void;
  errors: Partial<Record<"claim" | number, FieldMessage>>;
}) {
  const t = useT();
  const nextKey = useRef(rules.length);
  // A role the viewer may not hand out (or a custom one) that is set already is shown as it is.
  const options = (current: string) => (roles.includes(current) ? roles : [...roles, current]);
  const roleOptions = (current: string) =>
    options(current).map((role) => (
      <option key={role} value={role}>
        {roleLabel(role, t)}
      </option>
    ));
  const change = (key: number, patch: Partial<RoleRule>) =>
    setRules(rules.map((rule) => (rule.key === key ? { ...rule, ...patch } : rule)));
  return (
    <fieldset className="connection-roles" data-testid="connection-roles">
      <legend>{t("connections.roles.title")}</legend>
      <p className="hint">{t("connections.roles.intro")}</p>
      <Select
        label={t("connections.roles.defaultRole")}
        testId="connection-roles-default"
        value={defaultRole}
        onChange={(e) => setDefaultRole(e.target.value)}
      >
        {roleOptions(defaultRole)}
      </Select>
      <Field
        label={t(type === "saml" ? "connections.roles.attribute" : "connections.roles.claim")}
        hint={t("connections.roles.claimHint")}
        testId="connection-roles-claim"
        autoComplete="off"
        value={claim}
        error={errors.claim}
        onChange={(e) => setClaim(e.target.value)}
      />
      {rules.length === 0 && <p className="hint">{t("connections.roles.none")}</p>}
      {rules.map((rule, index) => (
        <div key={rule.key} className="inline-form" data-testid="connection-role-rule">
          <Field
            label={t("connections.roles.value", { n: index + 1 })}
            testId="connection-role-rule-value"
            autoComplete="off"
            value={rule.value}
            error={errors[index]}
            onChange={(e) => change(rule.key, { value: e.target.value })}
          />
          <Select
            label={t("connections.roles.role", { n: index + 1 })}
            testId="connection-role-rule-role"
            value={rule.role}
            onChange={(e) => change(rule.key, { role: e.target.value })}
          >
            {roleOptions(rule.role)}
          </Select>
          <Button
            type="button"
            variant="secondary"
            data-testid="connection-role-rule-remove"
            aria-label={t("connections.roles.removeLabel", { n: index + 1 })}
            onClick={() => setRules(rules.filter((r) => r.key !== rule.key))}
          >
            {t("connections.roles.remove")}
          </Button>
        </div>
      ))}
      <div className="actions">
        <Button
          type="button"
          variant="secondary"
          data-testid="connection-role-rule-add"
          onClick={() => setRules([...rules, { key: nextKey.current++, value: "", role: roles[0] ?? "member" }])}
        >
          {t("connections.roles.add")}
        </Button>
      </div>
    </fieldset>
  );
}

/** The rules' mapping as the API takes it, or the first problem with it. */
function roleMappingOf(
  claim: string,
  rules: RoleRule[],
): { mapping: ConnectionChange["roleMapping"] } | { errors: Partial<Record<"claim" | number, FieldMessage>> } {
  if (rules.length === 0) return { mapping: null };
  const errors: Partial<Record<"claim" | number, FieldMessage>> = {};
  if (!claim.trim()) errors.claim = { key: "connections.add.required" };
  const values: Record<string, string> = {};
  rules.forEach((rule, index) => {
    const value = rule.value.trim();
    if (!value) errors[index] = { key: "connections.add.required" };
    else if (Object.hasOwn(values, value)) errors[index] = { key: "connections.roles.duplicate" };
    else values[value] = rule.role;
  });
  return Object.keys(errors).length ? { errors } : { mapping: { claim: claim.trim(), values } };
}

/**
 * Changes a connection's domains, its IdP side and the roles it gives; an empty secret or
 * certificate keeps the current one. `roles` are those the viewer may hand out.
 */
export function EditConnectionForm({
  connection,
  roles,
  onSubmit,
  pending,
  error,
}: {
  connection: SSOProviderView;
  roles: string[];
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
  const [defaultRole, setDefaultRole] = useState(connection.defaultRole);
  const [claim, setClaim] = useState(connection.roleMapping?.claim ?? "");
  const [rules, setRules] = useState<RoleRule[]>(() =>
    Object.entries(connection.roleMapping?.values ?? {}).map(([value, role], key) => ({ key, value, role })),
  );
  const [roleErrors, setRoleErrors] = useState<Partial<Record<"claim" | number, FieldMessage>>>({});
  const name = connection.providerId;
  const submit = () => {
    const mapped = roleMappingOf(claim, rules);
    setRoleErrors("errors" in mapped ? mapped.errors : {});
    if ("errors" in mapped) return;
    const change: ConnectionChange = { providerId: name, domain: values.domain.trim() };
    // Only what changed: a saved role the server no longer knows must not block other edits.
    if (defaultRole !== connection.defaultRole) change.defaultRole = defaultRole;
    if (JSON.stringify(mapped.mapping) !== JSON.stringify(connection.roleMapping ?? null))
      change.roleMapping = mapped.mapping;
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
      <RoleMappingFields
        type={connection.type}
        roles={roles}
        defaultRole={defaultRole}
        setDefaultRole={setDefaultRole}
        claim={claim}
        setClaim={setClaim}
        rules={rules}
        setRules={setRules}
        errors={roleErrors}
      />
      <FormFooter error={error} pending={pending} testId="connection-edit-submit">
        {t("common.save")}
      </FormFooter>
    </Form>
  );
}
