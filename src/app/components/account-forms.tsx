import { type FormEvent, useState } from "react";
import type { User } from "../../contract/models.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import { isPictureUrl } from "../lib/picture-url.js";
import {
  changeEmailForm,
  changePasswordForm,
  type FieldErrors,
  type FieldMessage,
  profileForm,
  validate,
} from "../lib/schemas.js";
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
  const t = useT();
  const [name, setName] = useState(user.name);
  const [image, setImage] = useState(user.image ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(profileForm, { name, image });
    const errors: FieldErrors = result.ok ? {} : { ...result.errors };
    // A picture set elsewhere (an app's data: URL) may stay; a new one must be https.
    const picture = image.trim();
    const pictureOk = picture === "" || picture === (user.image ?? "") || isPictureUrl(picture);
    if (!pictureOk) errors.image = { key: "details.profile.imageInvalid" };
    setErrors(errors);
    if (result.ok && pictureOk) void onSubmit({ name: name.trim(), image: picture || null });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("profile.title")}>
      <Field
        label={t("field.name")}
        testId="profile-name"
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <Field
        label={t("field.pictureUrl")}
        testId="profile-image"
        type="url"
        value={image}
        onChange={(e) => setImage(e.target.value)}
        hint={t("details.profile.imageHint")}
        error={errors.image}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="profile-submit">
        {t("profile.submit")}
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
  const t = useT();
  const [newEmail, setNewEmail] = useState("");
  const [fieldError, setFieldError] = useState<FieldMessage>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(changeEmailForm, { newEmail });
    const sameEmail = result.ok && newEmail.trim().toLowerCase() === current.toLowerCase();
    setFieldError(result.ok ? (sameEmail ? { key: "validation.sameEmail" } : undefined) : result.errors.newEmail);
    if (result.ok && !sameEmail) void onSubmit({ newEmail: newEmail.trim() });
  };
  return (
    <Form onSubmit={submit} error={error} onChange={onEdit} aria-label={t("changeEmail.form")}>
      <p>
        {t("changeEmail.current")} <strong>{current}</strong>
      </p>
      <Field
        label={t("changeEmail.new")}
        testId="change-email-new"
        type="email"
        autoComplete="email"
        value={newEmail}
        onChange={(e) => setNewEmail(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="change-email-submit">
        {t("changeEmail.form")}
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
  const t = useT();
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
    <Form onSubmit={submit} error={error} onChange={onEdit} aria-label={t("changePassword.form")}>
      <PasswordField
        label={t("field.currentPassword")}
        testId="change-password-current"
        autoComplete="current-password"
        value={values.currentPassword}
        onChange={(e) => setValues({ ...values, currentPassword: e.target.value })}
        error={errors.currentPassword}
      />
      <PasswordField
        label={t("field.newPassword")}
        testId="change-password-new"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        value={values.newPassword}
        onChange={(e) => setValues({ ...values, newPassword: e.target.value })}
        error={errors.newPassword}
      />
      <Checkbox
        label={t("changePassword.revokeOthers")}
        testId="change-password-revoke"
        checked={values.revokeOtherSessions}
        onChange={(revokeOtherSessions) => setValues({ ...values, revokeOtherSessions })}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="change-password-submit">
        {t("changePassword.form")}
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
  const t = useT();
  const [password, setPassword] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    void onSubmit(hasPassword && !byMail ? { password } : {});
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("deleteAccount.title")}>
      <p>{t("deleteAccount.intro")}</p>
      {hasPassword && !byMail && (
        <PasswordField
          label={t("field.password")}
          testId="delete-account-password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      )}
      {byMail && <p className="hint">{t("deleteAccount.byMail")}</p>}
      <Checkbox
        label={t("deleteAccount.confirm")}
        testId="delete-account-confirm"
        checked={confirmed}
        onChange={setConfirmed}
      />
      <FormError error={error ?? null} />
      <Button variant="danger" pending={pending} disabled={!confirmed} data-testid="delete-account-submit">
        {byMail ? t("deleteAccount.sendLink") : t("deleteAccount.submit")}
      </Button>
    </Form>
  );
}
