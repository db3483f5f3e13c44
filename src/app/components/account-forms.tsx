import { type FormEvent, useState } from "react";
import type { User } from "../../contract/models.js";
import { useT } from "../lib/i18n.js";
import { isPictureUrl } from "../lib/picture-url.js";
import { changeEmailForm, changePasswordForm, type FieldErrors, profileForm, validate } from "../lib/schemas.js";
import { type FormProps as BaseFormProps, FormFooter, type PasswordLimits, useFormState } from "./form-state.js";
import { Checkbox, Field, Form, PasswordField } from "./ui.js";

interface FormProps<T> extends BaseFormProps<T> {
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
  const { values, input, field, errors, setErrors } = useFormState({ name: user.name, image: user.image ?? "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(profileForm, values);
    const errors: FieldErrors = result.ok ? {} : { ...result.errors };
    // A picture set elsewhere (an app's data: URL) may stay; a new one must be https.
    const picture = values.image.trim();
    const pictureOk = picture === "" || picture === (user.image ?? "") || isPictureUrl(picture);
    if (!pictureOk) errors.image = { key: "details.profile.imageInvalid" };
    setErrors(errors);
    if (result.ok && pictureOk) void onSubmit({ name: values.name.trim(), image: picture || null });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("profile.title")}>
      <Field label={t("field.name")} testId="profile-name" autoComplete="name" {...field("name")} />
      <Field
        label={t("field.pictureUrl")}
        testId="profile-image"
        type="url"
        value={values.image}
        onChange={input("image")}
        hint={t("details.profile.imageHint")}
        error={errors.image}
      />
      <FormFooter error={error} pending={pending} testId="profile-submit">
        {t("profile.submit")}
      </FormFooter>
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
  const { values, field, setErrors } = useFormState({ newEmail: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(changeEmailForm, values);
    const newEmail = values.newEmail.trim();
    const sameEmail = result.ok && newEmail.toLowerCase() === current.toLowerCase();
    setErrors(result.ok ? (sameEmail ? { newEmail: { key: "validation.sameEmail" } } : {}) : result.errors);
    if (result.ok && !sameEmail) void onSubmit({ newEmail });
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
        {...field("newEmail")}
      />
      <FormFooter error={error} pending={pending} testId="change-email-submit">
        {t("changeEmail.form")}
      </FormFooter>
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
}: FormProps<PasswordChange> & { limits: PasswordLimits }) {
  const t = useT();
  const { values, set, field, submitWith } = useFormState<PasswordChange>({
    currentPassword: "",
    newPassword: "",
    revokeOtherSessions: true,
  });
  const submit = submitWith(changePasswordForm(limits.minPasswordLength, limits.maxPasswordLength), () =>
    onSubmit(values),
  );
  return (
    <Form onSubmit={submit} error={error} onChange={onEdit} aria-label={t("changePassword.form")}>
      <PasswordField
        label={t("field.currentPassword")}
        testId="change-password-current"
        autoComplete="current-password"
        {...field("currentPassword")}
      />
      <PasswordField
        label={t("field.newPassword")}
        testId="change-password-new"
        meter={{ minLength: limits.minPasswordLength }}
        autoComplete="new-password"
        {...field("newPassword")}
      />
      <Checkbox
        label={t("changePassword.revokeOthers")}
        testId="change-password-revoke"
        checked={values.revokeOtherSessions}
        onChange={(revokeOtherSessions) => set("revokeOtherSessions", revokeOtherSessions)}
      />
      <FormFooter error={error} pending={pending} testId="change-password-submit">
        {t("changePassword.form")}
      </FormFooter>
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
      <FormFooter error={error} variant="danger" pending={pending} disabled={!confirmed} testId="delete-account-submit">
        {byMail ? t("deleteAccount.sendLink") : t("deleteAccount.submit")}
      </FormFooter>
    </Form>
  );
}
