import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { type PolicyRules, SIGN_IN_METHODS, type SignInMethod } from "../../contract/organization-policy.js";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { Button, Card, Checkbox, Field, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { usePageTitle, useT } from "../lib/i18n.js";
import { useRoles } from "../lib/permissions.js";
import { serverFieldErrors } from "../lib/policy-errors.js";
import type { FieldMessage } from "../lib/schemas.js";
import { useSubmit } from "../lib/use-submit.js";

type Method = Exclude<SignInMethod, "impersonation">;

interface PolicyDraft {
  requireTwoFactor: boolean;
  requireSSO: boolean;
  breakGlassUserIds: string[];
  /** Hours, as typed; empty: no limit. */
  maxSessionAge: string;
  /** Minutes, as typed; empty: none. */
  idleTimeout: string;
  /** null: every method. */
  allowedSignInMethods: Method[] | null;
}

const draftOf = (policy: PolicyRules): PolicyDraft => ({
  requireTwoFactor: policy.requireTwoFactor,
  requireSSO: policy.requireSSO,
  breakGlassUserIds: policy.breakGlassUserIds,
  maxSessionAge: policy.maxSessionAge === null ? "" : String(+(policy.maxSessionAge / 3600).toFixed(3)),
  idleTimeout: policy.idleTimeout === null ? "" : String(+(policy.idleTimeout / 60).toFixed(2)),
  allowedSignInMethods: policy.allowedSignInMethods as Method[] | null,
});

/** Typed hours or minutes as seconds; what is not a number goes as it is, for the server to refuse. */
function seconds(text: string, unit: number): number | null | string {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed.replace(",", "."));
  return Number.isFinite(value) ? Math.round(value * unit) : trimmed;
}

/** A group of checkboxes with a legend, and its error tied to it. */
function CheckGroup({
  legend,
  hint,
  error,
  testId,
  children,
}: {
  legend: string;
  hint?: string;
  error?: FieldMessage;
  testId: string;
  children: ReactNode;
}) {
  const t = useT();
  const id = useId();
  return (
    <fieldset
      data-testid={testId}
      aria-invalid={error ? true : undefined}
      aria-describedby={[hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
    >
      <legend>{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>
          {t(error.key, error.vars)}
        </p>
      )}
    </fieldset>
  );
}

function PolicyForm({
  initial,
  organizationId,
  owners,
  readOnly,
}: {
  initial: PolicyDraft;
  organizationId: string;
  owners: { userId: string; name: string }[];
  readOnly: boolean;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const update = useSubmit(authClient.organization.updatePolicy);
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof PolicyDraft>(key: K, value: PolicyDraft[K]) => {
    setSaved(false);
    setDraft((current) => ({ ...current, [key]: value }));
  };
  const { fields, rest } = serverFieldErrors(update.error);
  // A refusal moves focus to the first setting it names (or the form's error), never back to the page top.
  useEffect(() => {
    if (update.error)
      formRef.current
        ?.querySelector<HTMLElement>('[aria-invalid="true"] input, [aria-invalid="true"], .form-error')
        ?.focus();
  }, [update.error]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const reply = await update.run({
      organizationId,
      requireTwoFactor: draft.requireTwoFactor,
      requireSSO: draft.requireSSO,
      breakGlassUserIds: draft.breakGlassUserIds,
      // Sent as typed when it is not a number: the server's answer says what is wrong, by the field.
      maxSessionAge: seconds(draft.maxSessionAge, 3600) as number | null,
      idleTimeout: seconds(draft.idleTimeout, 60) as number | null,
      allowedSignInMethods: draft.allowedSignInMethods,
    });
    if (reply) {
      setSaved(true);
      queryClient.setQueryData(["organization-policy", organizationId], reply);
    }
  };
  const methods = draft.allowedSignInMethods;
  const toggleMethod = (method: Method, on: boolean) =>
    set("allowedSignInMethods", on ? [...(methods ?? []), method] : (methods ?? []).filter((m) => m !== method));
  const toggleOwner = (userId: string, on: boolean) =>
    set(
      "breakGlassUserIds",
      on ? [...draft.breakGlassUserIds, userId] : draft.breakGlassUserIds.filter((id) => id !== userId),
    );
  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} aria-label={t("policy.form")} noValidate>
      <fieldset disabled={readOnly} className="plain">
        {saved && <Notice testId="policy-saved">{t("policy.saved")}</Notice>}
        <CheckGroup
          legend={t("policy.twoFactor.legend")}
          hint={t("policy.twoFactor.hint")}
          error={fields.requireTwoFactor}
          testId="policy-two-factor-group"
        >
          <Checkbox
            label={t("policy.twoFactor")}
            testId="policy-require-two-factor"
            checked={draft.requireTwoFactor}
            onChange={(on) => set("requireTwoFactor", on)}
          />
        </CheckGroup>
        <CheckGroup legend={t("policy.methods")} error={fields.methods} testId="policy-methods">
          <Checkbox
            label={t("policy.methods.all")}
            testId="policy-methods-all"
            checked={methods === null}
            onChange={(on) => set("allowedSignInMethods", on ? null : [...SIGN_IN_METHODS])}
          />
          {methods !== null &&
            SIGN_IN_METHODS.map((method) => (
              <Checkbox
                key={method}
                label={t(`policy.method.${method}`)}
                testId={`policy-method-${method}`}
                checked={methods.includes(method)}
                onChange={(on) => toggleMethod(method, on)}
              />
            ))}
        </CheckGroup>
        <Field
          label={t("policy.maxSessionAge")}
          hint={t("policy.maxSessionAge.hint")}
          testId="policy-max-session-age"
          inputMode="decimal"
          value={draft.maxSessionAge}
          error={fields.maxSessionAge}
          onChange={(e) => set("maxSessionAge", e.target.value)}
        />
        <Field
          label={t("policy.idleTimeout")}
          hint={t("policy.idleTimeout.hint")}
          testId="policy-idle-timeout"
          inputMode="decimal"
          value={draft.idleTimeout}
          error={fields.idleTimeout}
          onChange={(e) => set("idleTimeout", e.target.value)}
        />
        <CheckGroup
          legend={t("policy.sso.legend")}
          hint={t("policy.sso.hint")}
          error={fields.requireSSO}
          testId="policy-sso-group"
        >
          <Checkbox
            label={t("policy.sso")}
            testId="policy-require-sso"
            checked={draft.requireSSO}
            onChange={(on) => set("requireSSO", on)}
          />
        </CheckGroup>
        <CheckGroup
          legend={t("policy.breakGlass")}
          hint={t("policy.breakGlass.hint")}
          error={fields.breakGlassUserIds}
          testId="policy-break-glass"
        >
          {owners.map((owner) => (
            <Checkbox
              key={owner.userId}
              label={owner.name}
              testId="policy-break-glass-owner"
              checked={draft.breakGlassUserIds.includes(owner.userId)}
              onChange={(on) => toggleOwner(owner.userId, on)}
            />
          ))}
        </CheckGroup>
        <FormError error={rest} />
        {!readOnly && (
          <Button pending={update.pending} data-testid="policy-submit">
            {t("policy.submit")}
          </Button>
        )}
      </fieldset>
    </form>
  );
}

/** The organization's policy: owners change it, admins read it (the server's rules). */
export function PolicyPage() {
  const { can, isOwner } = useRoles();
  const t = useT();
  const active = useActiveOrganization();
  const member = useActiveMember();
  usePageTitle("policy.title");
  const org = active.data;
  const role = member.data?.role;
  const mayRead = can(role, "organization", "update");
  const policy = useQuery({
    queryKey: ["organization-policy", org?.id],
    queryFn: () => unwrap(authClient.organization.getPolicy({ query: { organizationId: org!.id } })),
    enabled: Boolean(org) && mayRead,
  });
  if (!org || member.isPending) return <Loading />;
  if (!mayRead)
    return (
      <Card title={t("policy.title")} testId="policy-restricted">
        <p>{t("policy.restricted")}</p>
      </Card>
    );
  if (policy.isPending) return <Loading label={t("policy.loading")} />;
  if (policy.error) return <FormError error={policy.error} />;
  const readOnly = !isOwner(role);
  const owners = org.members
    .filter((m) => isOwner(m.role))
    .map((m) => ({ userId: m.userId, name: m.user?.name || m.user?.email || m.userId }));
  return (
    <Card title={t("policy.title")} testId="policy-card">
      <p>{t("policy.intro", { organization: org.name })}</p>
      {readOnly && (
        <p className="hint" data-testid="policy-read-only">
          {t("policy.readOnly")}
        </p>
      )}
      <PolicyForm
        key={org.id}
        initial={draftOf(policy.data.policy)}
        organizationId={org.id}
        owners={owners}
        readOnly={readOnly}
      />
    </Card>
  );
}
