import type { FormEvent, FormHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { useEffect, useId, useRef, useState } from "react";
import { useT } from "../lib/i18n.js";
import { type HasCode, messageFor } from "../lib/messages.js";
import { judgePassword, loadCommonPasswords } from "../lib/password-strength.js";
import type { FieldMessage } from "../lib/schemas.js";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** A catalogue key (from validate() or the form), translated here, at display time. */
  error?: FieldMessage;
  hint?: string;
  testId: string;
}

/**
 * A labelled input; its error is announced and tied to it with aria-describedby. While there is an
 * error the hint steps aside, so the field never says the same thing twice. `after` sits beside the
 * input (the show-password toggle), `below` under the messages (the strength meter).
 */
export function Field({
  label,
  error,
  hint,
  testId,
  after,
  below,
  describedBy: extraDescribedBy,
  ...input
}: FieldProps & { after?: ReactNode; below?: ReactNode; describedBy?: string }) {
  const id = useId();
  const t = useT();
  const errorText = error && t(error.key, error.vars);
  const shownHint = error ? undefined : hint;
  const describedBy =
    [error ? `${id}-error` : "", shownHint ? `${id}-hint` : "", extraDescribedBy ?? ""].filter(Boolean).join(" ") ||
    undefined;
  const control = (
    <input
      id={id}
      data-testid={testId}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...input}
    />
  );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {after ? (
        <div className="input-with-action">
          {control}
          {after}
        </div>
      ) : (
        control
      )}
      {shownHint && (
        <p id={`${id}-hint`} className="hint">
          {shownHint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>
          {errorText}
        </p>
      )}
      {below}
    </div>
  );
}

/**
 * A password input with a show/hide toggle (a button whose pressed state says whether the password is
 * visible; the value stays as typed) and, with `meter`, the strength of what is typed.
 */
export function PasswordField({ meter, ...props }: Omit<FieldProps, "type"> & { meter?: { minLength: number } }) {
  const [shown, setShown] = useState(false);
  const meterId = useId();
  const t = useT();
  const value = typeof props.value === "string" ? props.value : "";
  // One message at a time: the hint until something is typed, then the meter, and an error over both.
  const showMeter = Boolean(meter && value && !props.error);
  return (
    <Field
      {...props}
      hint={meter && value ? undefined : props.hint}
      type={shown ? "text" : "password"}
      // Browsers must not store or correct a password shown as text.
      spellCheck={false}
      autoCapitalize="off"
      describedBy={showMeter ? meterId : undefined}
      after={
        <button
          type="button"
          className="button secondary toggle"
          aria-pressed={shown}
          aria-label={t("password.showLabel")}
          data-testid={`${props.testId}-toggle`}
          onClick={() => setShown(!shown)}
        >
          {t("password.show")}
        </button>
      }
      below={showMeter && meter ? <StrengthMeter id={meterId} password={value} minLength={meter.minLength} /> : null}
    />
  );
}

function StrengthMeter({ id, password, minLength }: { id: string; password: string; minLength: number }) {
  const t = useT();
  const [common, setCommon] = useState<Set<string> | null>(null);
  useEffect(() => {
    let current = true;
    void loadCommonPasswords().then((list) => current && setCommon(list));
    return () => {
      current = false;
    };
  }, []);
  const strength = judgePassword(password, minLength, common);
  return (
    <div className="strength" data-score={strength.score} data-testid="password-strength">
      <span className="strength-bar" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={step <= strength.score ? "on" : ""} />
        ))}
      </span>
      <span id={id} className="strength-label" data-testid="password-strength-label">
        {t("password.strength", { label: t(strength.label, { min: minLength }) })}
      </span>
    </div>
  );
}

/**
 * A form that moves focus where the problem is: after a submit, to the first invalid field; when the
 * server answers with an error, to that error (so focus never falls back to the page).
 */
export function Form({
  error,
  onSubmit,
  children,
  ...form
}: FormHTMLAttributes<HTMLFormElement> & { error?: HasCode | string | null; onSubmit: (event: FormEvent) => void }) {
  const ref = useRef<HTMLFormElement>(null);
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    if (attempts) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);
  useEffect(() => {
    if (error) ref.current?.querySelector<HTMLElement>(".form-error")?.focus();
  }, [error]);
  return (
    <form
      ref={ref}
      noValidate
      {...form}
      onSubmit={(event) => {
        onSubmit(event);
        setAttempts((n) => n + 1);
      }}
    >
      {children}
    </form>
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
  const t = useT();
  if (!error) return null;
  return (
    <p role="alert" className="form-error" data-testid={testId} tabIndex={-1}>
      {messageFor(error, t)}
    </p>
  );
}

/**
 * A status message. With `takeFocus` it takes the focus when it appears: for the result of removing
 * something, whose button went away with it, so keyboard users carry on from here and not from the
 * top of the page.
 */
export function Notice({
  children,
  testId = "notice",
  takeFocus = false,
}: {
  children: ReactNode;
  testId?: string;
  takeFocus?: boolean;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, [takeFocus]);
  return (
    <p ref={ref} role="status" className="notice" data-testid={testId} tabIndex={takeFocus ? -1 : undefined}>
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

export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <p className="loading" role="status" aria-live="polite">
      {label ?? t("common.loading")}
    </p>
  );
}
