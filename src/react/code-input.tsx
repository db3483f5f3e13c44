import { type ClipboardEvent, type KeyboardEvent, useRef } from "react";
import { useFrame } from "./form-parts.js";

/**
 * A one-time code as one box per digit, inside one labelled group. Typing moves on, Backspace on an
 * empty box moves back, and a pasted (or autofilled) code fills every box from the one it lands in.
 * The first box carries autocomplete="one-time-code", where phones offer the code from the mail.
 */
export function CodeInput({
  label,
  value,
  onChange,
  length = 6,
  testId,
  invalid,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  length?: number;
  testId: string;
  invalid?: boolean;
}) {
  const { t } = useFrame();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // Positions matter: an empty box in the middle is a space in `value` (callers keep only the digits).
  const digits = Array.from({ length }, (_, i) => (value[i] ?? "").trim());
  const emit = (next: string[]) =>
    onChange(
      next
        .map((d) => d || " ")
        .join("")
        .trimEnd(),
    );
  const focus = (index: number) => boxes.current[Math.max(0, Math.min(length - 1, index))]?.focus();

  /** Writes digits from box `at` on, and moves to the box after the last one written. */
  const put = (at: number, typed: string) => {
    const clean = typed.replace(/\D/g, "");
    if (!clean) return;
    const next = [...digits];
    for (let i = 0; i < clean.length && at + i < length; i++) next[at + i] = clean[i] as string;
    emit(next);
    focus(at + clean.length);
  };
  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace" && !digits[index] && index > 0) {
      event.preventDefault();
      const next = [...digits];
      next[index - 1] = "";
      emit(next);
      focus(index - 1);
    } else if (event.key === "ArrowLeft") focus(index - 1);
    else if (event.key === "ArrowRight") focus(index + 1);
  };
  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    put(index, event.clipboardData.getData("text"));
  };

  return (
    <fieldset className="gh-field gh-code-field" data-testid={`${testId}-group`}>
      <legend className="gh-label">{label}</legend>
      <div className="gh-code">
        {digits.map((digit, index) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions, fixed in number
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            className="gh-input gh-code-box"
            data-testid={index === 0 ? testId : `${testId}-${index + 1}`}
            aria-label={t("code.digit", { index: index + 1, count: length })}
            aria-invalid={invalid ? true : undefined}
            autoComplete={index === 0 ? "one-time-code" : "off"}
            inputMode="numeric"
            pattern="[0-9]*"
            value={digit}
            onFocus={(event) => event.target.select()}
            onChange={(event) => {
              const typed = event.target.value;
              if (typed === "") {
                const next = [...digits];
                next[index] = "";
                emit(next);
              } else put(index, typed.length === 2 && digit ? typed.replace(digit, "") || digit : typed);
            }}
            onKeyDown={(event) => onKeyDown(index, event)}
            onPaste={(event) => onPaste(index, event)}
          />
        ))}
      </div>
    </fieldset>
  );
}
