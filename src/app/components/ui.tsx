import type { ReactNode, SelectHTMLAttributes } from "react";
import { useId } from "react";
import { useT } from "../lib/i18n.js";

/*
 * The form parts are the exported components' own (src/react/form-parts.tsx), drawn with the
 * application's class names (I18nProvider sets the frame's `classes: "app"`): one implementation of
 * fields, password meter, focus handling, errors and buttons. Select, Card and Loading are the app's.
 */
export {
  Button,
  Checkbox,
  ErrorMessage as FormError,
  Field,
  Form,
  Notice,
  PasswordField,
} from "../../react/form-parts.js";

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

/** The line shown while a page's module loads (or the page reloads for a newer build's). */
export function PageLoading() {
  return <Loading label={useT()("details.loading.page")} />;
}
