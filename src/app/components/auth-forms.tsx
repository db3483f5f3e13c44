import { useT } from "../lib/i18n.js";
import { emailForm, resetPasswordForm } from "../lib/schemas.js";
import { FormFooter, type FormProps, type PasswordLimits, useFormState } from "./form-state.js";
import { Field, Form, PasswordField } from "./ui.js";

export function EmailOnlyForm({
  onSubmit,
  pending,
  error,
  submitLabel,
  testId,
}: FormProps<{ email: string }> & { submitLabel: string; testId: string }) {
  const t = useT();
  const { values, field, submitWith } = useFormState({ email: "" });
  return (
    <Form onSubmit={submitWith(emailForm, () => onSubmit(values))} error={error} aria-label={submitLabel}>
      <Field
        label={t("field.email")}
        testId={`${testId}-email`}
        type="email"
        autoComplete="email"
        {...field("email")}
      />
      <FormFooter error={error} pending={pending} testId={`${testId}-submit`}>
        {submitLabel}
      </FormFooter>
    </Form>
  );
}

export function NewPasswordForm({
  onSubmit,
  pending,
  error,
  limits,
}: FormProps<{ newPassword: string }> & { limits: PasswordLimits }) {
  const t = useT();
  const { values, field, submitWith } = useFormState({ newPassword: "" });
  const submit = submitWith(resetPasswordForm(limits.minPasswordLength, limits.maxPasswordLength), () =>
    onSubmit(values),
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("resetPassword.title")}>
      <PasswordField
        label={t("field.newPassword")}
        testId="reset-password-new"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        {...field("newPassword")}
      />
      <FormFooter error={error} pending={pending} testId="reset-password-submit">
        {t("resetPassword.submit")}
      </FormFooter>
    </Form>
  );
}
