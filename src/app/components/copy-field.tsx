import { useId, useState } from "react";
import { useT } from "../lib/i18n.js";
import { Button } from "./ui.js";

/** A read-only value with a copy button; the text stays selectable where the clipboard is refused. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const t = useT();
  const id = useId();
  const [state, setState] = useState<"copied" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-action">
        <input id={id} readOnly value={value} data-testid={testId} onFocus={(e) => e.target.select()} />
        <Button
          type="button"
          variant="secondary"
          aria-label={t("directory.copyLabel", { what: label })}
          data-testid={`${testId}-copy`}
          onClick={() => void copy()}
        >
          {t("directory.copy")}
        </Button>
      </div>
      {state && (
        <p role="status" className="hint" data-testid={`${testId}-copy-state`}>
          {t(state === "copied" ? "directory.copied" : "directory.copyFailed")}
        </p>
      )}
    </div>
  );
}
