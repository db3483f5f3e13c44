import type { User } from "../../contract/models.js";
import { useT } from "../lib/i18n.js";
import { ADMIN_ROLES, adminProfileForm, createUserForm } from "../lib/schemas.js";
import { FormFooter, type FormProps, type PasswordLimits, useFormState } from "./form-state.js";
import { Checkbox, Field, Form, PasswordField, Select } from "./ui.js";

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
  const { values, input, field, submitWith } = useFormState({
    email: "",
    name: "",
    password: "",
    role: "user" as NewUser["role"],
  });
  const submit = submitWith(
    createUserForm(limits.minPasswordLength, limits.maxPasswordLength),
    ({ email, name, password, role }) => onSubmit({ email, name, role, ...(password ? { password } : {}) }),
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.create.title")}>
      <Field label={t("field.email")} testId="admin-create-email" type="email" autoComplete="off" {...field("email")} />
      <Field label={t("field.name")} testId="admin-create-name" autoComplete="off" {...field("name")} />
      <PasswordField
        label={t("admin.create.password")}
        testId="admin-create-password"
        autoComplete="new-password"
        hint={t("admin.create.passwordHint")}
        {...field("password")}
      />
      <Select label={t("field.role")} testId="admin-create-role" value={values.role} onChange={input("role")}>
        {ADMIN_ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`admin.role.${role}`)}
          </option>
        ))}
      </Select>
      <FormFooter error={error} pending={pending} testId="admin-create-submit">
        {t("admin.create.title")}
      </FormFooter>
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
  const { values, set, field, submitWith } = useFormState({
    name: user.name,
    image: user.image ?? "",
    email: user.email,
    emailVerified: user.emailVerified,
  });
  const submit = submitWith(adminProfileForm, () =>
    onSubmit({
      name: values.name.trim(),
      image: values.image.trim() || null,
      email: values.email.trim(),
      emailVerified: values.emailVerified,
    }),
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.edit.title")}>
      <Field label={t("field.name")} testId="admin-edit-name" autoComplete="off" {...field("name")} />
      <Field label={t("field.pictureUrl")} testId="admin-edit-image" type="url" {...field("image")} />
      <Field label={t("field.email")} testId="admin-edit-email" type="email" autoComplete="off" {...field("email")} />
      <Checkbox
        label={t("admin.edit.emailVerified")}
        testId="admin-edit-email-verified"
        checked={values.emailVerified}
        onChange={(emailVerified) => set("emailVerified", emailVerified)}
      />
      <FormFooter error={error} pending={pending} testId="admin-edit-submit">
        {t("profile.submit")}
      </FormFooter>
    </Form>
  );
}
