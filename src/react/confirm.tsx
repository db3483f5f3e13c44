import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { useClasses, useFrame } from "./form-parts.js";

export interface ConfirmRequest {
  /** A question naming what changes: "Remove Ivan from Acme?" */
  title: string;
  body: ReactNode;
  /** The verb on the button that does it. */
  confirmLabel: string;
  /** "danger" for what cannot be undone (removing, leaving); "primary" for the rest (a promotion). */
  tone?: "danger" | "primary";
}

/**
 * Asks before an action: render `dialog`, then `if (await confirm({...})) act()`. A native modal
 * <dialog>: focus starts on Cancel, Escape cancels, focus goes back to the opener if still there. It
 * draws in the frame's class scheme, so the application's own screens use it too.
 */
export function useConfirm(): { confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const [open, setOpen] = useState<(ConfirmRequest & { answer: (yes: boolean) => void }) | null>(null);
  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        setOpen({
          ...request,
          answer: (yes) => {
            setOpen(null);
            resolve(yes);
          },
        });
      }),
    [],
  );
  return { confirm, dialog: open ? <ConfirmDialog {...open} /> : null };
}

function ConfirmDialog({
  title,
  body,
  confirmLabel,
  tone = "danger",
  answer,
}: ConfirmRequest & { answer: (yes: boolean) => void }) {
  const { t } = useFrame();
  const cls = useClasses();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog?.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={cls("dialog")}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="confirm-dialog"
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      <h2 id={titleId} className={cls("dialog-title")}>
        {title}
      </h2>
      <div id={bodyId}>{body}</div>
      <div className={cls("dialog-actions")}>
        <button
          ref={cancelRef}
          type="button"
          className={cls("button", "secondary")}
          data-testid="confirm-cancel"
          onClick={() => answer(false)}
        >
          {t("common.cancel")}
        </button>
        <button
          type="button"
          className={cls("button", tone)}
          data-testid="confirm-accept"
          data-tone={tone}
          onClick={() => answer(true)}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
