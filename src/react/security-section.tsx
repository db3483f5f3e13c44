import { type ReactNode, useState } from "react";
import type { User } from "../contract/models.js";
import {
  Actions,
  Button,
  Checkbox,
  EMAIL_PATTERN,
  ErrorMessage,
  Field,
  type FieldMessage,
  Form,
  Notice,
  Panel,
  PasswordField,
  useFrame,
} from "./form-parts.js";
import { PasskeysPanel } from "./passkeys-panel.js";
import { useLoad } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import type { ServerOptions } from "./server-options.js";
import { ActivityPanel } from "./sessions-section.js";
import { TwoFactorPanel } from "./two-factor-panel.js";
import { useCall } from "./use-call.js";

function ChangeEmailPanel({ current, verifiedHref }: { current: string; verifiedHref: string }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const change = useCall(client.changeEmail);
  const [newEmail, setNewEmail] = useState("");
  const [error, setError] = useState<FieldMessage | undefined>();
  const [notice, setNotice] = useState<string | null>(null);
  const submit = async () => {
    const email = newEmail.trim();
    const found: FieldMessage | undefined = !EMAIL_PATTERN.test(email)
      ? { key: "validation.email" }
      : email.toLowerCase() === current.toLowerCase()
        ? { key: "validation.sameEmail" }
        : undefined;
    setError(found);
    if (found || !(await change.run({ newEmail: email, callbackURL: verifiedHref }))) return;
    setNotice(t("security.email.sent"));
    setNewEmail("");
  };
  return (
    <Panel title={t("security.email")} testId="change-email-card">
      {notice && <Notice testId="security-notice">{notice}</Notice>}
      <Form
        label={t("changeEmail.form")}
        error={change.error}
        onSubmit={() => void submit()}
        onChange={() => setNotice(null)}
      >
        <p>
          {t("changeEmail.current")} <strong>{current}</strong>
        </p>
        <Field
          label={t("changeEmail.new")}
          testId="change-email-new"
          type="email"
          autoComplete="email"
          value={newEmail}
          error={error}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <ErrorMessage error={change.error} />
        <Actions>
          <Button variant="secondary" pending={change.pending} data-testid="change-email-submit">
            {t("changeEmail.form")}
          </Button>
        </Actions>
      </Form>
    </Panel>
  );
}

type PasswordErrors = { currentPassword?: FieldMessage; newPassword?: FieldMessage };

/** The screen's one primary action: changing the password (or, without one, mailing a link to set it). */
function PasswordPanel({ limits }: { limits: { minPasswordLength: number; maxPasswordLength: number } }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const change = useCall(client.changePassword);
  const empty = { currentPassword: "", newPassword: "", revokeOtherSessions: true };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const { minPasswordLength: min, maxPasswordLength: max } = limits;
  const submit = async () => {
    const found: PasswordErrors = {};
    if (!values.currentPassword) found.currentPassword = { key: "validation.currentPassword" };
    if (values.newPassword.length < min) found.newPassword = { key: "validation.minLength", vars: { min } };
    else if (values.newPassword.length > max) found.newPassword = { key: "validation.maxLength", vars: { max } };
    else if (values.newPassword === values.currentPassword)
      found.newPassword = { key: "error.NEW_PASSWORD_SAME_AS_CURRENT" };
    setErrors(found);
    if (Object.keys(found).length || !(await change.run(values))) return;
    setNotice(t("security.password.changed"));
    setValues(empty);
  };
  return (
    <Panel title={t("field.password")} testId="change-password-card">
      {notice && <Notice testId="security-notice">{notice}</Notice>}
      <Form
        label={t("changePassword.form")}
        error={change.error}
        onSubmit={() => void submit()}
        onChange={() => setNotice(null)}
      >
        <PasswordField
          label={t("field.currentPassword")}
          testId="change-password-current"
          autoComplete="current-password"
          value={values.currentPassword}
          error={errors.currentPassword}
          onChange={(e) => setValues({ ...values, currentPassword: e.target.value })}
        />
        <PasswordField
          label={t("field.newPassword")}
          testId="change-password-new"
          meter={{ minLength: min }}
          autoComplete="new-password"
          value={values.newPassword}
          error={errors.newPassword}
          onChange={(e) => setValues({ ...values, newPassword: e.target.value })}
        />
        <Checkbox
          label={t("changePassword.revokeOthers")}
          testId="change-password-revoke"
          checked={values.revokeOtherSessions}
          onChange={(revokeOtherSessions) => setValues({ ...values, revokeOtherSessions })}
        />
        <ErrorMessage error={change.error} />
        <Actions>
          <Button pending={change.pending} data-testid="change-password-submit">
            {t("changePassword.form")}
          </Button>
        </Actions>
      </Form>
    </Panel>
  );
}

function SetPasswordPanel({ email, resetPasswordHref }: { email: string; resetPasswordHref: string }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const request = useCall(client.requestPasswordReset);
  const [sent, setSent] = useState(false);
  return (
    <Panel title={t("security.setPassword.title")} testId="set-password-card">
      {sent && <Notice testId="security-notice">{t("security.setPassword.sent")}</Notice>}
      <p>{t("security.setPassword.intro")}</p>
      <ErrorMessage error={request.error} />
      <Actions>
        <Button
          type="button"
          pending={request.pending}
          data-testid="set-password-submit"
          onClick={async () => setSent(Boolean(await request.run({ email, redirectTo: resetPasswordHref })))}
        >
          {t("security.setPassword.submit")}
        </Button>
      </Actions>
    </Panel>
  );
}

/**
 * Security: the email address, the password, passkeys, two-factor (with the backup codes left) and
 * the account's recent activity, each as the server's options switch them on.
 */
export function SecuritySection({
  user,
  options,
  hasPassword,
  verifiedHref,
  resetPasswordHref,
  qrCode,
}: {
  user: User;
  options: ServerOptions;
  hasPassword: boolean;
  verifiedHref: string;
  resetPasswordHref: string;
  qrCode?: (uri: string) => ReactNode;
}) {
  const client = useAuthClient();
  // One read serves the activity panel and the two-factor panel's count of backup codes.
  const activity = useLoad(() => client.securityActivity(), options.securityActivity);
  return (
    <>
      {options.changeEmail && <ChangeEmailPanel current={user.email} verifiedHref={verifiedHref} />}
      {hasPassword ? (
        <PasswordPanel limits={options.emailAndPassword} />
      ) : (
        <SetPasswordPanel email={user.email} resetPasswordHref={resetPasswordHref} />
      )}
      {options.passkey && (
        <PasskeysPanel
          hasPassword={hasPassword}
          email={user.email}
          emailVerified={user.emailVerified}
          verifiedHref={verifiedHref}
        />
      )}
      {options.twoFactor.enabled && (
        <TwoFactorPanel
          enabled={Boolean(user.twoFactorEnabled)}
          hasPassword={hasPassword}
          email={user.email}
          emailVerified={user.emailVerified}
          verifiedHref={verifiedHref}
          backupCodesRemaining={activity.data?.backupCodesRemaining}
          qrCode={qrCode}
          onChanged={activity.reload}
        />
      )}
      {options.securityActivity && (
        <ActivityPanel activity={activity.data} error={activity.error} onChanged={activity.reload} />
      )}
    </>
  );
}
