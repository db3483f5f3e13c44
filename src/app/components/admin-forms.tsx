import { type FormEvent, useState } from "react";
import type { HasCode } from "../lib/messages.js";
import {
  BAN_DURATIONS,
  banForm,
  type FieldErrors,
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
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(userSearchForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) onSubmit({ ...values, searchValue: values.searchValue.trim() });
  };
  return (
    <Form onSubmit={submit} aria-label="Search users" className="inline-form">
      <Field
        label="Search"
        testId="admin-search"
        type="search"
        value={values.searchValue}
        onChange={(e) => setValues({ ...values, searchValue: e.target.value })}
        error={errors.searchValue}
      />
      <Select
        label="In"
        testId="admin-search-field"
        value={values.searchField}
        onChange={(e) => setValues({ ...values, searchField: e.target.value as UserSearch["searchField"] })}
      >
        <option value="email">Email</option>
        <option value="name">Name</option>
      </Select>
      <Select
        label="Show"
        testId="admin-filter"
        value={values.filter}
        onChange={(e) => setValues({ ...values, filter: e.target.value as UserFilter })}
      >
        <option value="">All users</option>
        <option value="admins">Admins</option>
        <option value="users">Plain users</option>
        <option value="banned">Banned</option>
        <option value="active">Not banned</option>
      </Select>
      <Select
        label="Order"
        testId="admin-sort"
        value={values.sort}
        onChange={(e) => setValues({ ...values, sort: e.target.value as UserSort })}
      >
        <option value="createdAt:desc">Newest first</option>
        <option value="createdAt:asc">Oldest first</option>
        <option value="name:asc">Name A–Z</option>
        <option value="email:asc">Email A–Z</option>
      </Select>
      <Button data-testid="admin-search-submit">Search</Button>
    </Form>
  );
}

export type PasswordLimits = { minPasswordLength: number; maxPasswordLength: number };
export function RoleForm({ current, onSubmit, pending, error }: FormProps<{ role: string }> & { current: string }) {
  const [role, setRole] = useState(current);
  const choices = Array.from(new Set(["user", "admin", current]));
  return (
    <Form
      error={error}
      className="inline-form"
      aria-label="Role"
      onSubmit={(event) => {
        event.preventDefault();
        if (role !== current) void onSubmit({ role });
      }}
    >
      <Select label="Role" testId="admin-role" value={role} onChange={(e) => setRole(e.target.value)}>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </Select>
      <Button variant="secondary" pending={pending} disabled={role === current} data-testid="admin-role-submit">
        Change role
      </Button>
      <FormError error={error ?? null} />
    </Form>
  );
}

export function BanUserForm({ onSubmit, pending, error }: FormProps<{ banReason?: string; banExpiresIn?: number }>) {
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
    <Form onSubmit={submit} error={error} aria-label="Ban user">
      <p>Banning signs the user out everywhere and refuses every sign-in until the ban ends.</p>
      <Field
        label="Reason (shown to the user)"
        testId="admin-ban-reason"
        value={banReason}
        onChange={(e) => setBanReason(e.target.value)}
        error={errors.banReason}
      />
      <Select
        label="Duration"
        testId="admin-ban-duration"
        value={banExpiresIn}
        onChange={(e) => setBanExpiresIn(e.target.value)}
      >
        {BAN_DURATIONS.map((d) => (
          <option key={d.value} value={d.value}>
            {d.label}
          </option>
        ))}
      </Select>
      <FormError error={error ?? null} />
      <Button variant="danger" pending={pending} data-testid="admin-ban-submit">
        Ban user
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
  const [newPassword, setNewPassword] = useState("");
  const [fieldError, setFieldError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validate(setUserPasswordForm(limits.minPasswordLength, limits.maxPasswordLength), { newPassword });
    setFieldError(result.ok ? undefined : result.errors.newPassword);
    if (result.ok && (await onSubmit({ newPassword }))) setNewPassword("");
  };
  return (
    <Form onSubmit={submit} error={error} aria-label="Set password">
      <PasswordField
        label="New password"
        testId="admin-password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => setNewPassword(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button variant="secondary" pending={pending} data-testid="admin-password-submit">
        Set password
      </Button>
    </Form>
  );
}

/** Deleting asks for a clear yes first. */
export function DeleteUserForm({ name, onSubmit, pending, error }: FormProps<undefined> & { name: string }) {
  const [confirmed, setConfirmed] = useState(false);
  return (
    <Form
      error={error}
      aria-label="Delete user"
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed) void onSubmit(undefined);
      }}
    >
      <p>This removes {name}'s account, sessions, linked accounts and memberships. It cannot be undone.</p>
      <Checkbox
        label={`Yes, delete ${name}`}
        testId="admin-delete-confirm"
        checked={confirmed}
        onChange={setConfirmed}
      />
      <FormError error={error ?? null} />
      <Button variant="danger" pending={pending} disabled={!confirmed} data-testid="admin-delete-submit">
        Delete user
      </Button>
    </Form>
  );
}
