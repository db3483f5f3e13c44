import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { MessageKey } from "../../i18n/index.js";
import { AuthLayout } from "../components/shell.js";
import { Button, Checkbox, Field, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useT } from "../lib/i18n.js";
import { safeNextPath, useSubmit } from "../lib/use-submit.js";

type Method = "totp" | "backup" | "otp";

const LABELS = {
  totp: { field: "twoFactor.totp.field", hint: "twoFactor.totp.hint", switchTo: "twoFactor.totp.switch" },
  backup: { field: "twoFactor.backup.field", hint: "twoFactor.backup.hint", switchTo: "twoFactor.backup.switch" },
  otp: { field: "emailCode.field", hint: "twoFactor.otp.hint", switchTo: "signIn.emailCode" },
} as const satisfies Record<Method, Record<"field" | "hint" | "switchTo", MessageKey>>;

/** The sign-in step after the password (or provider) when the account has two-factor on. */
export function TwoFactorPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const config = useAppConfig();
  const t = useT();
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
    <AuthLayout titleKey="twoFactor.title">
      {method === "otp" && sent && <Notice testId="two-factor-otp-sent">{t("twoFactor.otp.sent")}</Notice>}
      <form onSubmit={submit} noValidate aria-label={t("twoFactor.secondFactor")}>
        <Field
          label={t(LABELS[method].field)}
          hint={t(LABELS[method].hint)}
          testId="two-factor-code"
          autoComplete="one-time-code"
          inputMode={method === "backup" ? "text" : "numeric"}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Checkbox
          label={t("twoFactor.trust")}
          testId="two-factor-trust"
          checked={trustDevice}
          onChange={setTrustDevice}
        />
        <FormError error={error} />
        <Button pending={verify.pending} data-testid="two-factor-submit">
          {t("twoFactor.verify")}
        </Button>
      </form>
      <fieldset className="alternatives">
        <legend className="visually-hidden">{t("twoFactor.alternatives")}</legend>
        {others.map((other) => (
          <Button
            key={other}
            type="button"
            variant="secondary"
            pending={other === "otp" && sendOtp.pending}
            onClick={() => void choose(other)}
            data-testid={`two-factor-use-${other}`}
          >
            {t(LABELS[other].switchTo)}
          </Button>
        ))}
      </fieldset>
    </AuthLayout>
  );
}
