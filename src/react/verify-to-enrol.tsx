import { useState } from "react";
import { Actions, Button, ErrorMessage, Notice, useFrame } from "./form-parts.js";
import type { HasCode } from "./messages.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

/** The server's refusal to enrol a factor before the address is proven (the credentials rule). */
export const refusedUnverified = (error: HasCode | null) => error?.code === "EMAIL_NOT_VERIFIED";

/**
 * Adding a passkey or second factor waits for a verified address (someone else may have signed up
 * with it): says so for the factor at hand, with the verification link to send again.
 */
export function VerifyToEnrol({
  factor,
  email,
  verifiedHref,
}: {
  factor: "passkey" | "twoFactor";
  email: string;
  verifiedHref: string;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const resend = useCall(client.sendVerificationEmail);
  const [sent, setSent] = useState(false);
  return (
    <div data-testid="verify-to-enrol">
      <p role="status">{t(factor === "passkey" ? "passkeys.verifyFirst" : "twoFactor.verifyFirst", { email })}</p>
      {sent ? (
        <Notice testId="verify-to-enrol-sent">{t("verification.sent")}</Notice>
      ) : (
        <Actions>
          <Button
            type="button"
            variant="secondary"
            pending={resend.pending}
            data-testid="verify-to-enrol-resend"
            onClick={async () => setSent(Boolean(await resend.run({ email, callbackURL: verifiedHref })))}
          >
            {t("verification.send")}
          </Button>
        </Actions>
      )}
      <ErrorMessage error={resend.error} />
    </div>
  );
}
