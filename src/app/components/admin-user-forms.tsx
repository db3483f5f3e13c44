import { type FormEvent, useState } from "react";
import type { User } from "../../contract/models.js";
import { useT } from "../lib/i18n.js";
import { ADMIN_ROLES, adminProfileForm, createUserForm, type FieldErrors, validate } from "../lib/schemas.js";
import type { FormProps, PasswordLimits } from "./admin-forms.js";
import { Button, Checkbox, Field, Form, FormError, PasswordField, Select } from "./ui.js";

/* Props-only forms that make and edit a user's account in the admin area. */

export interface NewUser {
  email: string;
  name: string;
  password?: string;
  role: (typeof ADMIN_ROLES)[number];
}

/** A new account made by an admin; without a password the user sets one through a reset link. */
export function CreateUserForm({ limits, onSubmit, pending, error }: FormProps<NewUser> & { limits: PasswordLimits }) {
  const t = useT();
  const [values, setValues] = useState({ email: "", name: "", password: "", role: "user" as NewUser["role"] });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(createUserForm(limits.minPasswordLength, limits.maxPasswordLength), values);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    const { email, name, password, role } = result.value;
    void onSubmit({ email, name, role, ...(password ? { password } : {}) });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.create.title")}>
      <Field
        label={t("field.email")}
        testId="admin-create-email"
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
        error={errors.email}
      />
      <Field
        label={t("field.name")}
        testId="admin-create-name"
        autoComplete="off"
        value={values.name}
        onChange={(e) => setValues({ ...values, name: e.target.value })}
        error={errors.name}
      />
      <PasswordField
        label={t("admin.create.password")}
        testId="admin-create-password"
        autoComplete="new-password"
        hint={t("admin.create.passwordHint")}
        value={values.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
        error={errors.password}
      />
      <Select
        label={t("field.role")}
        testId="admin-create-role"
        value={values.role}
        onChange={(e) => setValues({ ...values, role: e.target.value as NewUser["role"] })}
      >
        {ADMIN_ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`admin.role.${role}`)}
          </option>
        ))}
      </Select>
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="admin-create-submit">
        {t("admin.create.title")}
      </Button>
    </Form>
  );
}

/** A type, not an interface, so it passes as update-user's data record. */
export type AdminProfile = {
  name: string;
  image: string | null;
  email: string;
  emailVerified: boolean;
};

/** What update-user changes for an admin; the role and password have their own forms. */
export function AdminProfileForm({ user, onSubmit, pending, error }: FormProps<AdminProfile> & { user: User }) {
  const t = useT();
  const [values, setValues] = useState({
    name: user.name,
    image: user.image ?? "",
    email: user.email,
    emailVerified: user.emailVerified,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(adminProfileForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    void onSubmit({
      name: values.name.trim(),
      image: values.image.trim() || null,
      email: values.email.trim(),
      emailVerified: values.emailVerified,
    });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.edit.title")}>
      <Field
        label={t("field.name")}
        testId="admin-edit-name"
        autoComplete="off"
        value={values.name}
        onChange={(e) => setValues({ ...values, name: e.target.value })}
        error={errors.name}
      />
      <Field
        label={t("field.pictureUrl")}
        testId="admin-edit-image"
        type="url"
        value={values.image}
        onChange={(e) => setValues({ ...values, image: e.target.value })}
        error={errors.image}
      />
      <Field
        label={t("field.email")}
        testId="admin-edit-email"
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
        error={errors.email}
      />
      <Checkbox
        label={t("admin.edit.emailVerified")}
        testId="admin-edit-email-verified"
        checked={values.emailVerified}
        onChange={(emailVerified) => setValues({ ...values, emailVerified })}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="admin-edit-submit">
        {t("profile.submit")}
      </Button>
    </Form>
  );
}
