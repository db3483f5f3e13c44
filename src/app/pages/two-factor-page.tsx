import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { AuthLayout } from "../components/shell.js";
import { Button, Checkbox, Field, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { safeNextPath, useSubmit } from "../lib/use-submit.js";

type Method = "totp" | "backup" | "otp";

const LABELS: Record<Method, { field: string; hint: string; switchTo: string }> = {
  totp: { field: "Code from your authenticator app", hint: "6 digits.", switchTo: "Use the app" },
  backup: { field: "Backup code", hint: "One of the codes you saved. Each works once.", switchTo: "Use a backup code" },
  otp: { field: "Code from the email", hint: "We sent 6 digits to your address.", switchTo: "Email me a code" },
};

/** The sign-in step after the password (or provider) when the account has two-factor on. */
export function TwoFactorPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const config = useAppConfig();
  const [method, setMethod] = useState<Method>("totp");
  const [code, setCode] = useState("");
  const [trustDevice, setTrustDevice] = useState(false);
  const [sent, setSent] = useState(false);
  const verifyTotp = useSubmit(authClient.twoFactor.verifyTotp);
  const verifyBackup = useSubmit(authClient.twoFactor.verifyBackupCode);
  const verifyOtp = useSubmit(authClient.twoFactor.verifyOtp);
  const sendOtp = useSubmit(authClient.twoFactor.sendOtp);
  const verify = { totp: verifyTotp, backup: verifyBackup, otp: verifyOtp }[method];
  const error = verify.error ?? (method === "otp" ? sendOtp.error : null);

  const choose = async (chosen: Method) => {
    setMethod(chosen);
    setCode("");
    if (chosen === "otp" && !sent && (await sendOtp.run())) setSent(true);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    if (await verify.run({ code: code.trim(), trustDevice })) {
      await authClient.$store.session.refetch();
      navigate(next);
    }
  };
  const others = (["totp", "backup", ...(config.twoFactor.otp ? ["otp" as const] : [])] as Method[]).filter(
    (other) => other !== method,
  );

  return (
    <AuthLayout title="Two-factor authentication">
      {method === "otp" && sent && <Notice testId="two-factor-otp-sent">We have emailed you a code.</Notice>}
      <form onSubmit={submit} noValidate aria-label="Second factor">
        <Field
          label={LABELS[method].field}
          hint={LABELS[method].hint}
          testId="two-factor-code"
          autoComplete="one-time-code"
          inputMode={method === "backup" ? "text" : "numeric"}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Checkbox
          label="Trust this device for 30 days"
          testId="two-factor-trust"
          checked={trustDevice}
          onChange={setTrustDevice}
        />
        <FormError error={error} />
        <Button pending={verify.pending} data-testid="two-factor-submit">
          Verify
        </Button>
      </form>
      <fieldset className="alternatives">
        <legend className="visually-hidden">Other ways to verify</legend>
        {others.map((other) => (
          <Button
            key={other}
            type="button"
            variant="secondary"
            pending={other === "otp" && sendOtp.pending}
            onClick={() => void choose(other)}
            data-testid={`two-factor-use-${other}`}
          >
            {LABELS[other].switchTo}
          </Button>
        ))}
      </fieldset>
    </AuthLayout>
  );
}
