import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { useId } from "react";
import { type HasCode, messageFor } from "../lib/messages.js";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
  testId: string;
}

/** A labelled input; its error is announced and tied to it with aria-describedby. */
export function Field({ label, error, hint, testId, ...input }: FieldProps) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        data-testid={testId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  testId: string;
  children: ReactNode;
}

export function Select({ label, testId, children, ...select }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} data-testid={testId} {...select}>
        {children}
      </select>
    </div>
  );
}

export function Checkbox({
  label,
  testId,
  checked,
  onChange,
}: {
  label: string;
  testId: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <label className="checkbox">
      <input type="checkbox" data-testid={testId} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** The server's answer to a form, in words (role=alert so screen readers hear it). */
export function FormError({ error, testId = "form-error" }: { error: HasCode | string | null; testId?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className="form-error" data-testid={testId}>
      {messageFor(error)}
    </p>
  );
}

export function Notice({ children, testId = "notice" }: { children: ReactNode; testId?: string }) {
  return (
    <p role="status" className="notice" data-testid={testId}>
      {children}
    </p>
  );
}

export function Button({
  pending,
  children,
  variant = "primary",
  ...button
}: React.ButtonHTMLAttributes<HTMLButtonElement> & {
  pending?: boolean;
  variant?: "primary" | "secondary" | "danger";
}) {
  return (
    <button
      type="submit"
      className={`button ${variant}`}
      disabled={pending || button.disabled}
      aria-busy={pending || undefined}
      {...button}
    >
      {children}
    </button>
  );
}

export function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {label}…
    </p>
  );
}

export const formatDate = (date: Date | string | null | undefined) =>
  date ? new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—";
