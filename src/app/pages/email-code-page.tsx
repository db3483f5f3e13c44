import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { EmailOnlyForm } from "../components/auth-forms.js";
import { AuthLayout } from "../components/shell.js";
import { Button, Field, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
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
    navigate(next);
  };

  return (
    <AuthLayout title="Sign in with a code">
      {email === null ? (
        <>
          <p>Enter your email and we will send you a code that signs you in, no password needed.</p>
          <EmailOnlyForm
            testId="email-code"
            submitLabel="Email me a code"
            pending={send.pending}
            error={send.error}
            onSubmit={async ({ email }) => {
              if (await send.run({ email, type: "sign-in" })) setEmail(email);
            }}
          />
        </>
      ) : (
        <form onSubmit={submitCode} noValidate aria-label="Code from the email">
          <Notice testId="email-code-sent">If the address can sign in, a code is on its way to {email}.</Notice>
          <Field
            label="Code from the email"
            testId="email-code-otp"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
          />
          <FormError error={signIn.error} />
          <Button pending={signIn.pending} data-testid="email-code-submit">
            Sign in
          </Button>
        </form>
      )}
      <p className="switch">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
