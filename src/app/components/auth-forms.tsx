import { useT } from "../lib/i18n.js";
import { emailForm, resetPasswordForm, signInForm, signUpForm } from "../lib/schemas.js";
import { FormFooter, type FormProps, type PasswordLimits, useFormState } from "./form-state.js";
import { Checkbox, Field, Form, PasswordField } from "./ui.js";

export function SignUpForm({
  onSubmit,
  pending,
  error,
  limits,
}: FormProps<{ name: string; email: string; password: string }> & { limits: PasswordLimits }) {
  const t = useT();
  const { values, field, submitWith } = useFormState({ name: "", email: "", password: "" });
  const submit = submitWith(signUpForm(limits.minPasswordLength, limits.maxPasswordLength), () => onSubmit(values));
  return (
    <Form onSubmit={submit} error={error} aria-label={t("signUp.form")}>
      <Field label={t("field.name")} testId="sign-up-name" autoComplete="name" {...field("name")} />
      <Field label={t("field.email")} testId="sign-up-email" type="email" autoComplete="email" {...field("email")} />
      <PasswordField
        label={t("field.password")}
        testId="sign-up-password"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        {...field("password")}
        hint={t("field.password.hint", { min: limits.minPasswordLength })}
      />
      <FormFooter error={error} pending={pending} testId="sign-up-submit">
        {t("signUp.submit")}
      </FormFooter>
    </Form>
  );
}

export function SignInForm({
  onSubmit,
  pending,
  error,
  passkeyAutofill = false,
}: FormProps<{ email: string; password: string; rememberMe: boolean }> & { passkeyAutofill?: boolean }) {
  const t = useT();
  const { values, set, field, submitWith } = useFormState({ email: "", password: "", rememberMe: true });
  return (
    <Form onSubmit={submitWith(signInForm, () => onSubmit(values))} error={error} aria-label={t("signIn.form")}>
      <Field
        label={t("field.email")}
        testId="sign-in-email"
        type="email"
        // "webauthn" lets the browser offer passkeys in this field's autofill (conditional UI).
        autoComplete={passkeyAutofill ? "username webauthn" : "email"}
        {...field("email")}
      />
      <PasswordField
        label={t("field.password")}
        testId="sign-in-password"
        autoComplete="current-password"
        {...field("password")}
      />
      <Checkbox
        label={t("signIn.rememberMe")}
        testId="sign-in-remember"
        checked={values.rememberMe}
        onChange={(rememberMe) => set("rememberMe", rememberMe)}
      />
      <FormFooter error={error} pending={pending} testId="sign-in-submit">
        {t("signIn.submit")}
      </FormFooter>
    </Form>
  );
}

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
