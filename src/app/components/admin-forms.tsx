import { useState } from "react";
import { useT } from "../lib/i18n.js";
import { BAN_DURATIONS, banForm, setUserPasswordForm, userSearchForm } from "../lib/schemas.js";
import { FormFooter, type FormProps, type PasswordLimits, useFormState } from "./form-state.js";
import { Button, Checkbox, Field, Form, FormError, PasswordField, Select } from "./ui.js";

/* Props-only forms of the admin area; pages pass the calls in. */

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
  const { values, input, field, submitWith } = useFormState(initial);
  const submit = submitWith(userSearchForm, () => onSubmit({ ...values, searchValue: values.searchValue.trim() }));
  return (
    <Form onSubmit={submit} aria-label={t("admin.search.form")} className="inline-form">
      <Field label={t("admin.search.label")} testId="admin-search" type="search" {...field("searchValue")} />
      <Select
        label={t("admin.search.in")}
        testId="admin-search-field"
        value={values.searchField}
        onChange={input("searchField")}
      >
        <option value="email">{t("field.email")}</option>
        <option value="name">{t("field.name")}</option>
      </Select>
      <Select label={t("admin.search.show")} testId="admin-filter" value={values.filter} onChange={input("filter")}>
        <option value="">{t("admin.filter.all")}</option>
        <option value="admins">{t("admin.filter.admins")}</option>
        <option value="users">{t("admin.filter.users")}</option>
        <option value="banned">{t("admin.filter.banned")}</option>
        <option value="active">{t("admin.filter.active")}</option>
      </Select>
      <Select label={t("admin.search.order")} testId="admin-sort" value={values.sort} onChange={input("sort")}>
        <option value="createdAt:desc">{t("admin.sort.newest")}</option>
        <option value="createdAt:asc">{t("admin.sort.oldest")}</option>
        <option value="name:asc">{t("admin.sort.name")}</option>
        <option value="email:asc">{t("admin.sort.email")}</option>
      </Select>
      <Button data-testid="admin-search-submit">{t("admin.search.label")}</Button>
    </Form>
  );
}

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
  const { values, input, field, submitWith } = useFormState({ banReason: "", banExpiresIn: "" });
  const submit = submitWith(banForm, (ban) =>
    onSubmit({
      ...(ban.banReason ? { banReason: ban.banReason } : {}),
      ...(values.banExpiresIn ? { banExpiresIn: Number(values.banExpiresIn) } : {}),
    }),
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.ban.submit")}>
      <p>{t("admin.ban.intro")}</p>
      <Field label={t("admin.ban.reason")} testId="admin-ban-reason" {...field("banReason")} />
      <Select
        label={t("admin.ban.duration")}
        testId="admin-ban-duration"
        value={values.banExpiresIn}
        onChange={input("banExpiresIn")}
      >
        {BAN_DURATIONS.map((d) => (
          <option key={d.value} value={d.value}>
            {t(d.label)}
          </option>
        ))}
      </Select>
      <FormFooter error={error} variant="danger" pending={pending} testId="admin-ban-submit">
        {t("admin.ban.submit")}
      </FormFooter>
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
  const { values, set, field, submitWith } = useFormState({ newPassword: "" });
  const submit = submitWith(
    setUserPasswordForm(limits.minPasswordLength, limits.maxPasswordLength),
    async () => (await onSubmit(values)) && set("newPassword", ""),
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("admin.password.submit")}>
      <PasswordField
        label={t("field.newPassword")}
        testId="admin-password"
        autoComplete="new-password"
        {...field("newPassword")}
      />
      <FormFooter error={error} variant="secondary" pending={pending} testId="admin-password-submit">
        {t("admin.password.submit")}
      </FormFooter>
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
      <FormFooter error={error} variant="danger" pending={pending} disabled={!confirmed} testId="admin-delete-submit">
        {t("admin.delete.submit")}
      </FormFooter>
    </Form>
  );
}
