import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { EmailOnlyForm } from "../components/auth-forms.js";
import { AuthLayout, withCredentialsRemovedNotice } from "../components/shell.js";
import { Button, Field, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useT } from "../lib/i18n.js";
import { safeNextPath, useSubmit } from "../lib/use-submit.js";

/** "Email me a code": the address first, then the 6 digits from the mail. */
export function EmailCodePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const send = useSubmit(authClient.emailOtp.sendVerificationOtp);
  const signIn = useSubmit(authClient.signIn.emailOtp);
  const [email, setEmail] = useState<string | null>(null);
  const [otp, setOtp] = useState("");
  const t = useT();

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!email || !otp.trim()) return;
    const result = await signIn.run({ email, otp: otp.trim() });
    if (!result) return;
    if ("twoFactorRedirect" in result) {
      navigate(`/two-factor?${new URLSearchParams({ redirectTo: next })}`);
      return;
    }
    await authClient.$store.session.refetch();
    navigate(result.credentialsRemoved ? withCredentialsRemovedNotice(next) : next);
  };

  return (
    <AuthLayout titleKey="emailCode.title">
      {email === null ? (
        <>
          <p>{t("emailCode.intro")}</p>
          <EmailOnlyForm
            testId="email-code"
            submitLabel={t("signIn.emailCode")}
            pending={send.pending}
            error={send.error}
            onSubmit={async ({ email }) => {
              if (await send.run({ email, type: "sign-in" })) setEmail(email);
            }}
          />
        </>
      ) : (
        <form onSubmit={submitCode} noValidate aria-label={t("emailCode.field")}>
          <Notice testId="email-code-sent">{t("emailCode.sent", { email })}</Notice>
          <Field
            label={t("emailCode.field")}
            testId="email-code-otp"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
          />
          <FormError error={signIn.error} />
          <Button pending={signIn.pending} data-testid="email-code-submit">
            {t("signIn.submit")}
          </Button>
        </form>
      )}
      <p className="switch">
        <Link to="/sign-in">{t("common.backToSignIn")}</Link>
      </p>
    </AuthLayout>
  );
}
