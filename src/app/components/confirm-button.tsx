import type { ReactNode } from "react";
import type { ConfirmedAction } from "../lib/confirmed-action.js";
import { Button } from "./ui.js";

/**
 * A button that asks before it acts (rotate a secret, revoke, delete): pressed, the page's `act`
 * (useConfirmedAction) asks `action.ask`, then runs and follows up as the action says.
 */
export function ConfirmButton<T>({
  act,
  action,
  pending,
  testId,
  variant = "secondary",
  children,
}: {
  act: (action: ConfirmedAction<T>) => Promise<void>;
  action: ConfirmedAction<T>;
  pending: boolean;
  testId: string;
  variant?: "secondary" | "danger";
  children: ReactNode;
}) {
  return (
    <Button type="button" variant={variant} pending={pending} data-testid={testId} onClick={() => act(action)}>
      {children}
    </Button>
  );
}
