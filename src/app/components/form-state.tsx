import { type FormEvent, type ReactNode, useState } from "react";
import type { z } from "zod";
import type { HasCode } from "../lib/messages.js";
import { type FieldErrors, validate } from "../lib/schemas.js";
import { Button, FormError } from "./ui.js";

type ButtonProps = Parameters<typeof Button>[0];

/** Forms take data and callbacks only: the page decides what a submit does. */
export interface FormProps<T> {
  onSubmit: (values: T) => unknown;
  pending?: boolean;
  error?: HasCode | null;
}

export type PasswordLimits = { minPasswordLength: number; maxPasswordLength: number };

/**
 * A form's values and field errors. `input(key)` is a text control's onChange, `field(key)` a Field's
 * value, onChange and error; `submitWith` validates
 * on submit, shows the schema's messages, and hands the parsed value on only when there are none.
 */
export function useFormState<V extends object>(initial: V) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof V>(key: K, value: V[K]) => setValues((current) => ({ ...current, [key]: value }));
  const input = (key: keyof V) => (event: { target: { value: string } }) => set(key, event.target.value as V[keyof V]);
  const submitWith =
    <T,>(schema: z.ZodType<T>, onValid: (value: T) => unknown, toValidate: unknown = values) =>
    (event: FormEvent) => {
      event.preventDefault();
      const result = validate(schema, toValidate);
      setErrors(result.ok ? {} : result.errors);
      if (result.ok) void onValid(result.value);
    };
  /** A text field's value, onChange and error, to spread onto a Field. */
  const field = (key: keyof V & string) => ({
    value: values[key] as string,
    onChange: input(key),
    error: errors[key],
  });
  return { values, setValues, set, input, field, errors, setErrors, submitWith };
}

/** The form's error (announced) above its submit button. */
export function FormFooter({
  error,
  testId,
  children,
  ...button
}: {
  error?: HasCode | null;
  /** The submit button's test id. */
  testId: string;
  children: ReactNode;
} & Pick<ButtonProps, "pending" | "variant" | "disabled">) {
  return (
    <>
      <FormError error={error ?? null} />
      <Button {...button} data-testid={testId}>
        {children}
      </Button>
    </>
  );
}
