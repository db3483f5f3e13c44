import { type FormEvent, useState } from "react";
import type { User } from "../../contract/models.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import { isPictureUrl } from "../lib/picture-url.js";
import { changeEmailForm, changePasswordForm, type FieldErrors, profileForm, validate } from "../lib/schemas.js";
import { Button, Checkbox, Field, Form, FormError, PasswordField } from "./ui.js";

interface FormProps<T> {
  onSubmit: (values: T) => unknown;
  pending?: boolean;
  error?: HasCode | null;
  /** Any field changed (a page clears its "saved" notice). */
  onEdit?: () => void;
}

export function ProfileForm({
  user,
  onSubmit,
  pending,
  error,
}: FormProps<{ name: string; image: string | null }> & { user: User }) {
  const [name, setName] = useState(user.name);
  const [image, setImage] = useState(user.image ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(profileForm, { name, image });
    const errors = result.ok ? {} : { ...result.errors };
    // A picture set elsewhere (an app's data: URL) may stay; a new one must be https.
    const picture = image.trim();
    const pictureOk = picture === "" || picture === (user.image ?? "") || isPictureUrl(picture);
    if (!pictureOk) errors.image = t("details.profile.imageInvalid");
    setErrors(errors);
    if (result.ok && pictureOk) void onSubmit({ name: name.trim(), image: picture || null });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label="Profile">
      <Field
        label="Name"
        testId="profile-name"
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <Field
        label="Picture URL"
        testId="profile-image"
        type="url"
        value={image}
        onChange={(e) => setImage(e.target.value)}
        hint={t("details.profile.imageHint")}
        error={errors.image}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="profile-submit">
        Save profile
      </Button>
    </Form>
  );
}

export function ChangeEmailForm({
  current,
  onSubmit,
  pending,
  error,
  onEdit,
}: FormProps<{ newEmail: string }> & { current: string }) {
  const [newEmail, setNewEmail] = useState("");
  const [fieldError, setFieldError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(changeEmailForm, { newEmail });
    const sameEmail = result.ok && newEmail.trim().toLowerCase() === current.toLowerCase();
    setFieldError(result.ok ? (sameEmail ? "This is already your email." : undefined) : result.errors.newEmail);
    if (result.ok && !sameEmail) void onSubmit({ newEmail: newEmail.trim() });
  };
  return (
    <Form onSubmit={submit} error={error} onChange={onEdit} aria-label="Change email">
      <p>
        Current email: <strong>{current}</strong>
      </p>
      <Field
        label="New email"
        testId="change-email-new"
        type="email"
        autoComplete="email"
        value={newEmail}
        onChange={(e) => setNewEmail(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="change-email-submit">
        Change email
      </Button>
    </Form>
  );
}

type PasswordChange = { currentPassword: string; newPassword: string; revokeOtherSessions: boolean };

export function ChangePasswordForm({
  limits,
  onSubmit,
  pending,
  error,
  onEdit,
}: FormProps<PasswordChange> & { limits: { minPasswordLength: number; maxPasswordLength: number } }) {
  const [values, setValues] = useState<PasswordChange>({
    currentPassword: "",
    newPassword: "",
    revokeOtherSessions: true,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(changePasswordForm(limits.minPasswordLength, limits.maxPasswordLength), values);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) void onSubmit(values);
  };
  return (
    <Form onSubmit={submit} error={error} onChange={onEdit} aria-label="Change password">
      <PasswordField
        label="Current password"
        testId="change-password-current"
        autoComplete="current-password"
        value={values.currentPassword}
        onChange={(e) => setValues({ ...values, currentPassword: e.target.value })}
        error={errors.currentPassword}
      />
      <PasswordField
        label="New password"
        testId="change-password-new"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        value={values.newPassword}
        onChange={(e) => setValues({ ...values, newPassword: e.target.value })}
        error={errors.newPassword}
      />
      <Checkbox
        label="Sign out my other sessions"
        testId="change-password-revoke"
        checked={values.revokeOtherSessions}
        onChange={(revokeOtherSessions) => setValues({ ...values, revokeOtherSessions })}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="change-password-submit">
        Change password
      </Button>
    </Form>
  );
}

/** Deletion asks for the password, or (when the server mails a confirmation) just a clear yes. */
export function DeleteAccountForm({
  hasPassword,
  byMail,
  onSubmit,
  pending,
  error,
}: FormProps<{ password?: string }> & { hasPassword: boolean; byMail: boolean }) {
  const [password, setPassword] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    void onSubmit(hasPassword && !byMail ? { password } : {});
  };
  return (
    <Form onSubmit={submit} error={error} aria-label="Delete account">
      <p>This removes your account, your sessions and your linked accounts. It cannot be undone.</p>
      {hasPassword && !byMail && (
        <PasswordField
          label="Password"
          testId="delete-account-password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      )}
      {byMail && <p className="hint">We will send a confirmation link to your email.</p>}
      <Checkbox
        label="I understand this cannot be undone"
        testId="delete-account-confirm"
        checked={confirmed}
        onChange={setConfirmed}
      />
      <FormError error={error ?? null} />
      <Button variant="danger" pending={pending} disabled={!confirmed} data-testid="delete-account-submit">
        {byMail ? "Send confirmation link" : "Delete my account"}
      </Button>
    </Form>
  );
}
