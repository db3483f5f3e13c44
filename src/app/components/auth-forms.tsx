import { type FormEvent, useState } from "react";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import {
  emailForm,
  type FieldErrors,
  type FieldMessage,
  resetPasswordForm,
  signInForm,
  signUpForm,
  validate,
} from "../lib/schemas.js";
import { Button, Checkbox, Field, Form, FormError, PasswordField } from "./ui.js";

/** Forms take data and callbacks only: the page decides what a submit does. */
interface FormProps<T> {
  onSubmit: (values: T) => unknown;
  pending?: boolean;
  error?: HasCode | null;
}

type PasswordLimits = { minPasswordLength: number; maxPasswordLength: number };

export function SignUpForm({
  onSubmit,
  pending,
  error,
  limits,
}: FormProps<{ name: string; email: string; password: string }> & { limits: PasswordLimits }) {
  const t = useT();
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(signUpForm(limits.minPasswordLength, limits.maxPasswordLength), values);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) void onSubmit(values);
  };
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  return (
    <Form onSubmit={submit} error={error} aria-label={t("signUp.form")}>
      <Field
        label={t("field.name")}
        testId="sign-up-name"
        autoComplete="name"
        value={values.name}
        onChange={set("name")}
        error={errors.name}
      />
      <Field
        label={t("field.email")}
        testId="sign-up-email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={set("email")}
        error={errors.email}
      />
      <PasswordField
        label={t("field.password")}
        testId="sign-up-password"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        value={values.password}
        onChange={set("password")}
        error={errors.password}
        hint={t("field.password.hint", { min: limits.minPasswordLength })}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="sign-up-submit">
        {t("signUp.submit")}
      </Button>
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
  const [values, setValues] = useState({ email: "", password: "", rememberMe: true });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(signInForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) void onSubmit(values);
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("signIn.form")}>
      <Field
        label={t("field.email")}
        testId="sign-in-email"
        type="email"
        // "webauthn" lets the browser offer passkeys in this field's autofill (conditional UI).
        autoComplete={passkeyAutofill ? "username webauthn" : "email"}
        value={values.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
        error={errors.email}
      />
      <PasswordField
        label={t("field.password")}
        testId="sign-in-password"
        autoComplete="current-password"
        value={values.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
        error={errors.password}
      />
      <Checkbox
        label={t("signIn.rememberMe")}
        testId="sign-in-remember"
        checked={values.rememberMe}
        onChange={(rememberMe) => setValues({ ...values, rememberMe })}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="sign-in-submit">
        {t("signIn.submit")}
      </Button>
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
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<FieldMessage>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(emailForm, { email });
    setFieldError(result.ok ? undefined : result.errors.email);
    if (result.ok) void onSubmit({ email });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={submitLabel}>
      <Field
        label={t("field.email")}
        testId={`${testId}-email`}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid={`${testId}-submit`}>
        {submitLabel}
      </Button>
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
  const [newPassword, setNewPassword] = useState("");
  const [fieldError, setFieldError] = useState<FieldMessage>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(resetPasswordForm(limits.minPasswordLength, limits.maxPasswordLength), { newPassword });
    setFieldError(result.ok ? undefined : result.errors.newPassword);
    if (result.ok) void onSubmit({ newPassword });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("resetPassword.title")}>
      <PasswordField
        label={t("field.newPassword")}
        testId="reset-password-new"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="reset-password-submit">
        {t("resetPassword.submit")}
      </Button>
    </Form>
  );
}
