import { type FormEvent, useState } from "react";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import {
  BAN_DURATIONS,
  banForm,
  type FieldErrors,
  type FieldMessage,
  setUserPasswordForm,
  userSearchForm,
  validate,
} from "../lib/schemas.js";
import { Button, Checkbox, Field, Form, FormError, PasswordField, Select } from "./ui.js";

/* Props-only forms of the admin area; pages pass the calls in. */

export interface FormProps<T> {
  onSubmit: (values: T) => unknown;
  pending?: boolean;
  error?: HasCode | null;
}

export type UserFilter = "" | "admins" | "users" | "banned" | "active";
export type UserSort = "createdAt:desc" | "createdAt:asc" | "name:asc" | "email:asc";
export interface UserSearch {
  searchValue: string;
  searchField: "email" | "name";
  filter: UserFilter;
  sort: UserSort;
}

/** Search by email or name, one filter (role or ban state) and the order; paging is the page's. */
export function UserSearchForm({ initial, onSubmit }: { initial: UserSearch; onSubmit: (values: UserSearch) => void }) {
  const t = useT();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(userSearchForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) onSubmit({ ...values, searchValue: values.searchValue.trim() });
  };
  return (
    <Form onSubmit={submit} aria-label={t("admin.search.form")} className="inline-form">
      <Field
        label={t("admin.search.label")}
        testId="admin-search"
        type="search"
        value={values.searchValue}
        onChange={(e) => setValues({ ...values, searchValue: e.target.value })}
        error={errors.searchValue}
      />
      <Select
        label={t("admin.search.in")}
        testId="admin-search-field"
        value={values.searchField}
        onChange={(e) => setValues({ ...values, searchField: e.target.value as UserSearch["searchField"] })}
      >
        <option value="email">{t("field.email")}</option>
        <option value="name">{t("field.name")}</option>
      </Select>
      <Select
        label={t("admin.search.show")}
        testId="admin-filter"
        value={values.filter}
        onChange={(e) => setValues({ ...values, filter: e.target.value as UserFilter })}
      >
        <option value="">{t("admin.filter.all")}</option>
        <option value="admins">{t("admin.filter.admins")}</option>
        <option value="users">{t("admin.filter.users")}</option>
        <option value="banned">{t("admin.filter.banned")}</option>
        <option value="active">{t("admin.filter.active")}</option>
      </Select>
      <Select
        label={t("admin.search.order")}
        testId="admin-sort"
        value={values.sort}
        onChange={(e) => setValues({ ...values, sort: e.target.value as UserSort })}
      >
        <option value="createdAt:desc">{t("admin.sort.newest")}</option>
        <option value="createdAt:asc">{t("admin.sort.oldest")}</option>
        <option value="name:asc">{t("admin.sort.name")}</option>
        <option value="email:asc">{t("admin.sort.email")}</option>
      </Select>
      <Button data-testid="admin-search-submit">{t("admin.search.label")}</Button>
    </Form>
  );
}

export type PasswordLimits = { minPasswordLength: number; maxPasswordLength: number };
export function RoleForm({ current, onSubmit, pending, error }: FormProps<{ role: string }> & { current: string }) {
  const t = useT();
  const [role, setRole] = useState(current);
  const choices = Array.from(new Set(["user", "admin", current]));
  return (
    <Form
      error={error}
      className="inline-form"
      aria-label={t("field.role")}
      onSubmit={(event) => {
        event.preventDefault();
        if (role !== current) void onSubmit({ role });
      }}
    >
      <Select label={t("field.role")} testId="admin-role" value={role} onChange={(e) => setRole(e.target.value)}>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice === "user" || choice === "admin" ? t(`admin.role.${choice}`) : choice}
          </option>
        ))}
      </Select>
      <Button variant="secondary" pending={pending} disabled={role === current} data-testid="admin-role-submit">
        {t("admin.role.submit")}
      </Button>
      <FormError error={error ?? null} />
    </Form>
  );
}

export function BanUserForm({ onSubmit, pending, error }: FormProps<{ banReason?: string; banExpiresIn?: number }>) {
  const t = useT();
  const [banReason, setBanReason] = useState("");
  const [banExpiresIn, setBanExpiresIn] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(banForm, { banReason, banExpiresIn });
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    void onSubmit({
      ...(result.value.banReason ? { banReason: result.value.banReason } : {}),
      ...(banExpiresIn ? { banExpiresIn: Number(banExpiresIn) } : {}),
    });
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.ban.submit")}>
      <p>{t("admin.ban.intro")}</p>
      <Field
        label={t("admin.ban.reason")}
        testId="admin-ban-reason"
        value={banReason}
        onChange={(e) => setBanReason(e.target.value)}
        error={errors.banReason}
      />
      <Select
        label={t("admin.ban.duration")}
        testId="admin-ban-duration"
        value={banExpiresIn}
        onChange={(e) => setBanExpiresIn(e.target.value)}
      >
        {BAN_DURATIONS.map((d) => (
          <option key={d.value} value={d.value}>
            {t(d.label)}
          </option>
        ))}
      </Select>
      <FormError error={error ?? null} />
      <Button variant="danger" pending={pending} data-testid="admin-ban-submit">
        {t("admin.ban.submit")}
      </Button>
    </Form>
  );
}

export function SetUserPasswordForm({
  limits,
  onSubmit,
  pending,
  error,
}: FormProps<{ newPassword: string }> & { limits: PasswordLimits }) {
  const t = useT();
  const [newPassword, setNewPassword] = useState("");
  const [fieldError, setFieldError] = useState<FieldMessage>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validate(setUserPasswordForm(limits.minPasswordLength, limits.maxPasswordLength), { newPassword });
    setFieldError(result.ok ? undefined : result.errors.newPassword);
    if (result.ok && (await onSubmit({ newPassword }))) setNewPassword("");
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.password.submit")}>
      <PasswordField
        label={t("field.newPassword")}
        testId="admin-password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button variant="secondary" pending={pending} data-testid="admin-password-submit">
        {t("admin.password.submit")}
      </Button>
    </Form>
  );
}

/** Deleting asks for a clear yes first. */
export function DeleteUserForm({ name, onSubmit, pending, error }: FormProps<undefined> & { name: string }) {
  const t = useT();
  const [confirmed, setConfirmed] = useState(false);
  return (
    <Form
      error={error}
      aria-label={t("admin.delete.submit")}
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed) void onSubmit(undefined);
      }}
    >
      <p>{t("admin.delete.intro", { name })}</p>
      <Checkbox
        label={t("admin.delete.confirm", { name })}
        testId="admin-delete-confirm"
        checked={confirmed}
        onChange={setConfirmed}
      />
      <FormError error={error ?? null} />
      <Button variant="danger" pending={pending} disabled={!confirmed} data-testid="admin-delete-submit">
        {t("admin.delete.submit")}
      </Button>
    </Form>
  );
}
