import { type FormEvent, useState } from "react";
import type { HasCode } from "../lib/messages.js";
import { emailForm, type FieldErrors, resetPasswordForm, signInForm, signUpForm, validate } from "../lib/schemas.js";
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
    <Form onSubmit={submit} error={error} aria-label="Sign up">
      <Field
        label="Name"
        testId="sign-up-name"
        autoComplete="name"
        value={values.name}
        onChange={set("name")}
        error={errors.name}
      />
      <Field
        label="Email"
        testId="sign-up-email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={set("email")}
        error={errors.email}
      />
      <PasswordField
        label="Password"
        testId="sign-up-password"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        value={values.password}
        onChange={set("password")}
        error={errors.password}
        hint={`At least ${limits.minPasswordLength} characters.`}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="sign-up-submit">
        Create account
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
  const [values, setValues] = useState({ email: "", password: "", rememberMe: true });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(signInForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) void onSubmit(values);
  };
  return (
    <Form onSubmit={submit} error={error} aria-label="Sign in with email">
      <Field
        label="Email"
        testId="sign-in-email"
        type="email"
        // "webauthn" lets the browser offer passkeys in this field's autofill (conditional UI).
        autoComplete={passkeyAutofill ? "username webauthn" : "email"}
        value={values.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
        error={errors.email}
      />
      <PasswordField
        label="Password"
        testId="sign-in-password"
        autoComplete="current-password"
        value={values.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
        error={errors.password}
      />
      <Checkbox
        label="Remember me"
        testId="sign-in-remember"
        checked={values.rememberMe}
        onChange={(rememberMe) => setValues({ ...values, rememberMe })}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="sign-in-submit">
        Sign in
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
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(emailForm, { email });
    setFieldError(result.ok ? undefined : result.errors.email);
    if (result.ok) void onSubmit({ email });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={submitLabel}>
      <Field
        label="Email"
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
  const [newPassword, setNewPassword] = useState("");
  const [fieldError, setFieldError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(resetPasswordForm(limits.minPasswordLength, limits.maxPasswordLength), { newPassword });
    setFieldError(result.ok ? undefined : result.errors.newPassword);
    if (result.ok) void onSubmit({ newPassword });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label="Choose a new password">
      <PasswordField
        label="New password"
        testId="reset-password-new"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="reset-password-submit">
        Save password
      </Button>
    </Form>
  );
}
