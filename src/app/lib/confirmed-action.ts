import { type ReactNode, useCallback } from "react";
import { type ConfirmRequest, useConfirm } from "../../react/confirm.js";

/** What a confirmed change asks, the call that makes it (null: refused), and what follows its answer. */
export interface ConfirmedAction<T> {
  ask: ConfirmRequest;
  run: () => Promise<T | null>;
  /** The answer, once the call succeeded: show a new secret, refresh the list. */
  done: (answer: T) => unknown;
}

/**
 * A change that asks first (rotating a secret, revoking, deleting): render `dialog`, then
 * `act({ ask, run, done })` asks, runs the call if confirmed, and hands its answer to `done`. A
 * refusal stays with the call's own error (useSubmit), so `done` runs only on success.
 */
export function useConfirmedAction(): {
  act: <T>(action: ConfirmedAction<T>) => Promise<void>;
  dialog: ReactNode;
} {
  const { confirm, dialog } = useConfirm();
  const act = useCallback(
    async <T>({ ask, run, done }: ConfirmedAction<T>) => {
      if (!(await confirm(ask))) return;
      const answer = await run();
      if (answer !== null) await done(answer);
    },
    [confirm],
  );
  return { act, dialog };
}
