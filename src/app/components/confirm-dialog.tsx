import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { useT } from "../lib/i18n.js";

export interface ConfirmRequest {
  /** A question naming what goes: "Remove Ivan from Acme?" */
  title: string;
  /** What happens, in a sentence or two. */
  body: ReactNode;
  /** The verb on the button that does it: "Remove member". */
  confirmLabel: string;
}

/**
 * Asks before a destructive action: `const { confirm, dialog } = useConfirm()`, render `dialog`,
 * then `if (await confirm({...})) act()`. A native modal <dialog>
 * (the page behind it is inert); focus starts on Cancel, Escape cancels, and focus goes back to
 * what opened it when that is still on the page.
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

function ConfirmDialog({ title, body, confirmLabel, answer }: ConfirmRequest & { answer: (yes: boolean) => void }) {
  const t = useT();
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
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="confirm-dialog"
      // Escape: the browser cancels; this closes through the same path as the Cancel button.
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div id={bodyId}>{body}</div>
      <div className="actions">
        <button
          ref={cancelRef}
          type="button"
          className="button secondary"
          data-testid="confirm-cancel"
          onClick={() => answer(false)}
        >
          {t("common.cancel")}
        </button>
        <button type="button" className="button danger" data-testid="confirm-accept" onClick={() => answer(true)}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
