import { type ButtonHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from "react";
import type { Appearance, Labels, Localization } from "./localization.js";
import type { Navigate } from "./navigate.js";

/** What every organization component takes: words, look, and how it follows links. */
export interface OrganizationComponentProps {
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
}

/** A labelled select (gh-* styles). */
export function SelectField({
  label,
  testId,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="gh-field">
      <label htmlFor={id} className="gh-label">
        {label}
      </label>
      <select id={id} className="gh-select" data-testid={testId} {...select}>
        {children}
      </select>
    </div>
  );
}

/** A small button for actions in a row (gh-small), never a form's submit unless asked. */
export function RowButton({
  variant = "secondary",
  type = "button",
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "danger" | "text" }) {
  return <button type={type} className={`gh-button gh-small gh-${variant}`} {...button} />;
}
