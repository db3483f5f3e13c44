import {
  type ButtonHTMLAttributes,
  createContext,
  type FormEvent,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { type MessageKey, type MessageVars, type Translate, translator } from "../i18n/index.js";
import {
  type Appearance,
  appearanceStyle,
  componentTranslator,
  type Labels,
  type Localization,
} from "./localization.js";
import { type HasCode, messageFor } from "./messages.js";
import type { Navigate } from "./navigate.js";
import { judgePassword, loadCommonPasswords } from "./password-strength.js";

/**
 * The pieces the screen components (SignIn, SignUp) are built of, styled by components.css with
 * gh-* classes: each component provides its translate function and navigation once, here.
 */
interface Frame {
  t: Translate;
  navigate: Navigate;
  /** For dates; the words come from `t`. */
  locale?: Localization;
  /**
   * The class names the parts draw with: `gh` (components.css, the default) or `app` (Gatehouse's
   * application styles.css, which uses the same parts for its own screens).
   */
  classes?: "gh" | "app";
}

/** The application's names where they are not the gh- name without its prefix. */
const appNames: Record<string, string> = {
  label: "",
  input: "",
  "input-row": "input-with-action",
  form: "",
  error: "form-error",
  dialog: "confirm-dialog",
  "dialog-title": "",
  "dialog-actions": "actions",
};

/** Class names in the frame's scheme: `cls("button", "primary")`. */
export function useClasses() {
  const scheme = useContext(FrameContext).classes ?? "gh";
  return (...names: string[]) =>
    names
      .map((name) => (scheme === "gh" ? `gh-${name}` : (appNames[name] ?? name)))
      .filter(Boolean)
      .join(" ") || undefined;
}
const FrameContext = createContext<Frame>({ t: translator("en"), navigate: (href) => window.location.assign(href) });
export const useFrame = () => useContext(FrameContext);
/** For components with a root of their own (UserProfile): the same words and navigation for their parts. */
export const FrameProvider = FrameContext.Provider;

/** A field's message: a catalogue key, with the values it names (`{min}`). */
export interface FieldMessage {
  key: MessageKey;
  vars?: MessageVars;
}

/** The component's root: its card, heading, theme variables, words and navigation. */
export function ComponentRoot({
  t,
  navigate,
  locale,
  appearance,
  title,
  testId,
  headingLevel = 1,
  className,
  children,
}: Frame & {
  appearance?: Appearance;
  title: string;
  testId: string;
  headingLevel?: 1 | 2;
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <FrameContext.Provider value={{ t, navigate, locale }}>
      <section
        className={className ? `gh-root gh-card ${className}` : "gh-root gh-card"}
        style={appearanceStyle(appearance)}
        data-theme={appearance?.theme && appearance.theme !== "auto" ? appearance.theme : undefined}
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <Heading id={titleId} className="gh-title">
          {title}
        </Heading>
        {children}
      </section>
    </FrameContext.Provider>
  );
}

/**
 * A panel component that works inside another (UserProfile: its words) or alone, with its own
 * `localization` and `labels`.
 */
export function OwnWords({
  localization,
  labels,
  children,
}: {
  localization?: Localization;
  labels?: Labels;
  children: ReactNode;
}) {
  const outer = useFrame();
  const own = useMemo(
    () => (localization || labels ? componentTranslator(localization, labels) : null),
    [localization, labels],
  );
  if (!own) return <>{children}</>;
  return (
    <FrameContext.Provider value={{ ...outer, t: own, locale: localization ?? outer.locale }}>
      <div className="gh-root">{children}</div>
    </FrameContext.Provider>
  );
}

/** A link inside the application: a plain click goes through `navigate` (the app's router, if it gave one). */
export function ComponentLink({
  href,
  children,
  testId,
  current,
}: {
  href: string;
  children: ReactNode;
  testId?: string;
  current?: boolean;
}) {
  const { navigate } = useFrame();
  const onClick = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a
      href={href}
      className="gh-link"
      data-testid={testId}
      aria-current={current ? "page" : undefined}
      onClick={onClick}
    >
      {children}
    </a>
  );
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: FieldMessage;
  hint?: string;
  testId: string;
}

/** A labelled input; its error is announced and tied to it (aria-describedby), and replaces the hint. */
export function Field({
  label,
  error,
  hint,
  testId,
  after,
  below,
  describedBy: extra,
  ...input
}: FieldProps & { after?: ReactNode; below?: ReactNode; describedBy?: string }) {
  const cls = useClasses();
  const id = useId();
  const { t } = useFrame();
  const shownHint = error ? undefined : hint;
  const describedBy =
    [error ? `${id}-error` : "", shownHint ? `${id}-hint` : "", extra ?? ""].filter(Boolean).join(" ") || undefined;
  const control = (
    <input
      id={id}
      className={cls("input")}
      data-testid={testId}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...input}
    />
  );
  return (
    <div className={cls("field")}>
      <label htmlFor={id} className={cls("label")}>
        {label}
      </label>
      {after ? (
        <div className={cls("input-row")}>
          {control}
          {after}
        </div>
      ) : (
        control
      )}
      {shownHint && (
        <p id={`${id}-hint`} className={cls("hint")}>
          {shownHint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={cls("field-error")} data-testid={`${testId}-error`}>
          {t(error.key, error.vars)}
        </p>
      )}
      {below}
    </div>
  );
}

/** A password input with a show/hide toggle and, with `meter`, the strength of what is typed. */
export function PasswordField({ meter, ...props }: Omit<FieldProps, "type"> & { meter?: { minLength: number } }) {
  const cls = useClasses();
  const [shown, setShown] = useState(false);
  const meterId = useId();
  const { t } = useFrame();
  const value = typeof props.value === "string" ? props.value : "";
  const showMeter = Boolean(meter && value && !props.error);
  return (
    <Field
      {...props}
      hint={meter && value ? undefined : props.hint}
      type={shown ? "text" : "password"}
      spellCheck={false}
      autoCapitalize="off"
      describedBy={showMeter ? meterId : undefined}
      after={
        <button
          type="button"
          className={cls("button", "secondary", "toggle")}
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
  const cls = useClasses();
  const { t } = useFrame();
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
    <div className={cls("strength")} data-score={strength.score} data-testid="password-strength">
      <span className={cls("strength-bar")} aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={step <= strength.score ? cls("on") : undefined} />
        ))}
      </span>
      <span id={id} className={cls("strength-label")} data-testid="password-strength-label">
        {t("password.strength", { label: t(strength.label, { min: minLength }) })}
      </span>
    </div>
  );
}

/** A labelled multi-line input (a list, one entry per line), with an optional hint tied to it. */
export function TextArea({
  label,
  testId,
  value,
  onChange,
  hint,
  rows = 6,
}: {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  rows?: number;
}) {
  const cls = useClasses();
  const id = useId();
  return (
    <div className={cls("field")}>
      <label htmlFor={id} className={cls("label")}>
        {label}
      </label>
      <textarea
        id={id}
        className={cls("input")}
        rows={rows}
        data-testid={testId}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className={cls("hint")}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A form that moves focus to the first invalid field after a submit, and to the server's error when one comes. */
export function Form({
  error,
  onSubmit,
  label,
  children,
  className,
  ...form
}: Omit<FormHTMLAttributes<HTMLFormElement>, "onSubmit"> & {
  error?: HasCode | string | null;
  onSubmit: (event: FormEvent) => void;
  /** The form's accessible name. */
  label?: string;
  children: ReactNode;
}) {
  const cls = useClasses();
  const ref = useRef<HTMLFormElement>(null);
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    if (attempts) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);
  useEffect(() => {
    if (error) ref.current?.querySelector<HTMLElement>('[role="alert"]')?.focus();
  }, [error]);
  return (
    <form
      ref={ref}
      noValidate
      aria-label={label}
      {...form}
      className={[cls("form"), className].filter(Boolean).join(" ") || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event);
        setAttempts((n) => n + 1);
      }}
    >
      {children}
    </form>
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
  const cls = useClasses();
  return (
    <label className={cls("checkbox")}>
      <input type="checkbox" data-testid={testId} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** The server's answer in words (role=alert so screen readers hear it). */
export function ErrorMessage({ error, testId = "form-error" }: { error: HasCode | string | null; testId?: string }) {
  const cls = useClasses();
  const { t } = useFrame();
  if (!error) return null;
  return (
    <p role="alert" className={cls("error")} data-testid={testId} tabIndex={-1}>
      {messageFor(error, t)}
    </p>
  );
}

/**
 * A status message. With `takeFocus` it takes the focus when it appears: after removing something
 * whose button went away with it, keyboard users carry on from here.
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
  const cls = useClasses();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, [takeFocus]);
  return (
    <p ref={ref} role="status" className={cls("notice")} data-testid={testId} tabIndex={takeFocus ? -1 : undefined}>
      {children}
    </p>
  );
}

/** One card of a multi-card screen (UserProfile's sections): a titled section. */
export function Panel({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section className="gh-card gh-panel" aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="gh-panel-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Loading() {
  const { t } = useFrame();
  return (
    <p className="gh-hint" role="status" aria-live="polite">
      {t("common.loading")}
    </p>
  );
}

/** Buttons side by side, with a gap between them (they wrap on a narrow screen). */
export function Actions({ children }: { children: ReactNode }) {
  return <div className="gh-actions">{children}</div>;
}

/**
 * Every button of a screen is full width and the same height: one primary action, the rest
 * secondary (outlined), so emphasis follows importance and not the width.
 */
export function Button({
  pending,
  variant = "primary",
  children,
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  pending?: boolean;
  variant?: "primary" | "secondary" | "danger" | "text";
}) {
  const cls = useClasses();
  return (
    <button
      type="submit"
      className={cls("button", variant)}
      disabled={pending || button.disabled}
      aria-busy={pending || undefined}
      {...button}
    >
      {children}
    </button>
  );
}

/** Simple checks before a request (the server checks again): catalogue keys per field. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
