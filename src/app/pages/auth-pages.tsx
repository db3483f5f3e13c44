import { browserSupportsWebAuthnAutofill, startAuthentication } from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { GoogleOneTap, useSession } from "../../react/index.js";
import { EmailOnlyForm, NewPasswordForm, SignInForm, SignUpForm } from "../components/auth-forms.js";
import { ProviderButtons } from "../components/provider-buttons.js";
import { AuthLayout } from "../components/shell.js";
import { Button, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import { safeNextPath, useSubmit } from "../lib/use-submit.js";

/** Reads the new session before leaving, so the signed-in pages never see the old (empty) one. */
async function enter(navigate: (to: string) => void, next: string) {
  await authClient.$store.session.refetch();
  navigate(next);
}

/** A passkey that did not verify its user is one factor: a user with two-factor on takes the second step. */
async function enterAfterPasskey(signedIn: object | null, navigate: (to: string) => void, next: string) {
  if (signedIn && "twoFactorRedirect" in signedIn) navigate(`/two-factor?${new URLSearchParams({ redirectTo: next })}`);
  else await enter(navigate, next);
}

export function SignUpPage() {
  const config = useAppConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const t = useT();
  const [checkMail, setCheckMail] = useState(false);
  const submit = useSubmit(authClient.signUp.email);
  const onSubmit = async (values: { name: string; email: string; password: string }) => {
    const data = await submit.run({ ...values, callbackURL: "/verified" });
    if (!data) return;
    if (data.token) await enter(navigate, next);
    else setCheckMail(true);
  };
  return (
    <AuthLayout titleKey="signUp.title">
      {checkMail ? (
        <Notice testId="sign-up-check-mail">{t("signUp.checkMail")}</Notice>
      ) : (
        <SignUpForm
          onSubmit={onSubmit}
          pending={submit.pending}
          error={submit.error}
          limits={config.emailAndPassword}
        />
      )}
      <p className="switch">
        {t("signUp.haveAccount")} <Link to={`/sign-in${params.size ? `?${params}` : ""}`}>{t("signIn.submit")}</Link>
      </p>
    </AuthLayout>
  );
}

export function SignInPage() {
  const config = useAppConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const session = useSession();
  const emailSignIn = useSubmit(authClient.signIn.email);
  const guest = useSubmit(authClient.signIn.anonymous);
  const social = useSubmit(authClient.signIn.social);
  const redirectError = params.get("error");
  const [passkeyError, setPasskeyError] = useState<HasCode | null>(null);
  const t = useT();

  const onEmail = async (values: { email: string; password: string; rememberMe: boolean }) => {
    const signedIn = await emailSignIn.run(values);
    if (!signedIn) return;
    // Two-factor on: no session yet; the second step finishes the sign-in.
    if ("twoFactorRedirect" in signedIn) navigate(`/two-factor?${new URLSearchParams({ redirectTo: next })}`);
    else await enter(navigate, next);
  };
  const onGuest = async () => {
    if (await guest.run()) await enter(navigate, next);
  };
  // Passkey autofill (conditional UI): the browser offers the site's passkeys in the email field; a
  // choice there signs in. Starting the button's ceremony cancels this one.
  useEffect(() => {
    if (!config.passkey) return;
    let active = true;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      const options = await authClient.passkey.generateAuthenticateOptions();
      if (!active || options.error) return;
      try {
        const response = await startAuthentication({ optionsJSON: options.data as never, useBrowserAutofill: true });
        const verified = await authClient.passkey.verifyAuthentication({ response: { ...response } });
        if (active && !verified.error) await enterAfterPasskey(verified.data, navigate, next);
      } catch {
        // Cancelled (the page went away or the button took over): nothing to show.
      }
    })();
    return () => {
      active = false;
    };
  }, [config.passkey, navigate, next]);

  const onPasskey = async () => {
    setPasskeyError(null);
    const options = await authClient.passkey.generateAuthenticateOptions();
    if (options.error) return setPasskeyError(options.error);
    let response: unknown;
    try {
      response = await startAuthentication({ optionsJSON: options.data as never });
    } catch {
      return setPasskeyError({ code: "AUTH_CANCELLED" });
    }
    const verified = await authClient.passkey.verifyAuthentication({
      response: response as { id: string; type: string },
    });
    if (verified.error) return setPasskeyError(verified.error);
    await enterAfterPasskey(verified.data, navigate, next);
  };
  const onSocial = (provider: string) =>
    // The reply carries {url, redirect: true}: the client takes the browser to the provider.
    void social.run({ provider, callbackURL: next, errorCallbackURL: "/sign-in" });

  return (
    <AuthLayout titleKey="signIn.title">
      {redirectError && <FormError error={redirectError} testId="redirect-error" />}
      {session.data && !session.data.user.isAnonymous && (
        <Notice>
          {t("signIn.signedInAs", { email: session.data.user.email })} <Link to={next}>{t("common.continue")}</Link>
        </Notice>
      )}
      {config.emailAndPassword.enabled && (
        <SignInForm
          onSubmit={onEmail}
          pending={emailSignIn.pending}
          error={emailSignIn.error}
          passkeyAutofill={config.passkey}
        />
      )}
      <p>
        <Link to="/forgot-password" data-testid="forgot-password-link">
          {t("signIn.forgotPassword")}
        </Link>
      </p>
      {config.passkey && (
        <div className="passkey-sign-in">
          <Button type="button" variant="secondary" onClick={() => void onPasskey()} data-testid="sign-in-passkey">
            {t("signIn.passkey")}
          </Button>
          <FormError error={passkeyError} testId="passkey-error" />
        </div>
      )}
      {config.magicLink && (
        <p>
          <Link to={`/sign-in/link${params.size ? `?${params}` : ""}`} data-testid="magic-link-link">
            {t("signIn.magicLink")}
          </Link>
        </p>
      )}
      {config.emailOTP && (
        <p>
          <Link to={`/sign-in/code${params.size ? `?${params}` : ""}`} data-testid="email-code-link">
            {t("signIn.emailCode")}
          </Link>
        </p>
      )}
      {(config.socialProviders.length > 0 || config.anonymous) && (
        <fieldset className="alternatives">
          <legend className="visually-hidden">{t("signIn.alternatives")}</legend>
          <ProviderButtons
            providers={config.socialProviders}
            pending={social.pending}
            testIdPrefix="sign-in-social"
            onChoose={onSocial}
          />
          {config.anonymous && (
            <Button
              type="button"
              variant="secondary"
              pending={guest.pending}
              data-testid="sign-in-guest"
              onClick={() => void onGuest()}
            >
              {t("signIn.guest")}
            </Button>
          )}
          <FormError error={social.error ?? guest.error} testId="alternative-error" />
        </fieldset>
      )}
      {config.oneTapClientId && <GoogleOneTap clientId={config.oneTapClientId} callbackURL={next} />}
      {!config.emailAndPassword.disableSignUp && (
        <p className="switch">
          {t("signIn.newHere")}{" "}
          <Link to={`/sign-up${params.size ? `?${params}` : ""}`}>{t("signIn.createAccount")}</Link>
        </p>
      )}
    </AuthLayout>
  );
}

export function ForgotPasswordPage() {
  const submit = useSubmit(authClient.requestPasswordReset);
  const [sent, setSent] = useState<string | null>(null);
  const t = useT();
  return (
    <AuthLayout titleKey="forgotPassword.title">
      {sent ? (
        <Notice testId="forgot-password-sent">{sent}</Notice>
      ) : (
        <>
          <p>{t("forgotPassword.intro")}</p>
          <EmailOnlyForm
            testId="forgot-password"
            submitLabel={t("forgotPassword.submit")}
            pending={submit.pending}
            error={submit.error}
            onSubmit={async ({ email }) => {
              const data = await submit.run({ email, redirectTo: "/reset-password" });
              // The server's answer is the same whether or not the address has an account: say it in our words.
              if (data) setSent(t("forgotPassword.sent"));
            }}
          />
        </>
      )}
      <p className="switch">
        <Link to="/sign-in">{t("common.backToSignIn")}</Link>
      </p>
    </AuthLayout>
  );
}

export function ResetPasswordPage() {
  const config = useAppConfig();
  const [params] = useSearchParams();
  const token = params.get("token");
  const linkError = params.get("error");
  const submit = useSubmit(authClient.resetPassword);
  const [done, setDone] = useState<{ credentialsRemoved?: true } | null>(null);
  const t = useT();
  return (
    <AuthLayout titleKey="resetPassword.title">
      {linkError || !token ? (
        <>
          <FormError error={linkError ?? "INVALID_TOKEN"} testId="reset-link-error" />
          <Link to="/forgot-password">{t("resetPassword.newLink")}</Link>
        </>
      ) : done ? (
        <>
          {done.credentialsRemoved && <Notice testId="credentials-removed">{t("notice.credentialsRemoved")}</Notice>}
          <Notice testId="reset-password-done">
            {t("resetPassword.done")} <Link to="/sign-in">{t("signIn.submit")}</Link>
          </Notice>
        </>
      ) : (
        <NewPasswordForm
          limits={config.emailAndPassword}
          pending={submit.pending}
          error={submit.error}
          onSubmit={async ({ newPassword }) => setDone((await submit.run({ newPassword, token })) ?? null)}
        />
      )}
    </AuthLayout>
  );
}

/**
 * Where the API sends a verification link that would sign in but was followed as a link (any site
 * can aim one at a browser): the button posts the form to the API, same origin, which verifies,
 * signs in and comes back to callbackURL.
 */
export function VerifyEmailConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const callbackURL = params.get("callbackURL");
  const t = useT();
  return (
    <AuthLayout titleKey="verifyEmail.confirmTitle">
      {token ? (
        <form method="post" action={`${authClient.apiURL}/verify-email`}>
          <p>{t("verifyEmail.confirmIntro")}</p>
          <input type="hidden" name="token" value={token} />
          {callbackURL && <input type="hidden" name="callbackURL" value={callbackURL} />}
          <Button type="submit" data-testid="verify-email-continue">
            {t("verifyEmail.confirmSubmit")}
          </Button>
        </form>
      ) : (
        <FormError error="INVALID_TOKEN" testId="verify-error" />
      )}
    </AuthLayout>
  );
}

/** Where the verification link lands (`/verified` or `/verified?error=...`). */
export function VerifiedPage() {
  const [params] = useSearchParams();
  const error = params.get("error");
  const session = useSession();
  const { refetch } = session;
  const t = useT();
  // Verification may have signed the visitor in: read the session again on arrival.
  const [arrived] = useState(() => refetch);
  useEffect(() => void arrived(), [arrived]);
  // verify-email says which email-change step the link was: approved by the old address, or done.
  const step = params.get("emailChange");
  const email = session.data?.user.email;
  const titleKey = error
    ? "verified.failedTitle"
    : step === "approved"
      ? "details.verified.approvedTitle"
      : step === "changed"
        ? "details.verified.changedTitle"
        : "verified.title";
  return (
    <AuthLayout titleKey={titleKey}>
      {error ? (
        <FormError
          error={error === "could_not_update_email" ? { message: t("details.verified.emailTaken") } : error}
          testId="verify-error"
        />
      ) : step === "approved" ? (
        <Notice testId="verify-change-approved">{t("details.verified.approved")}</Notice>
      ) : step === "changed" ? (
        <Notice testId="verify-success">
          {email ? t("details.verified.changedTo", { email }) : t("details.verified.changed")}
        </Notice>
      ) : (
        <Notice testId="verify-success">{t("verified.notice")}</Notice>
      )}
      <p>
        {session.data ? (
          <Link to="/" data-testid="verified-continue">
            {t("verified.continue")}
          </Link>
        ) : (
          <Link to="/sign-in" data-testid="verified-continue">
            {t("signIn.submit")}
          </Link>
        )}
      </p>
    </AuthLayout>
  );
}

/**
 * The new-device mail's "Not you? Secure your account" (`?token=`). Opening the page changes nothing
 * (mail scanners open links); the button signs out everywhere and continues to the reset page.
 */
export function SecureAccountPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const submit = useSubmit(authClient.secureAccount);
  const navigate = useNavigate();
  const t = useT();
  return (
    <AuthLayout titleKey="secureAccount.title">
      {!token ? (
        <FormError error="INVALID_TOKEN" testId="secure-account-error" />
      ) : (
        <>
          <p>{t("secureAccount.intro")}</p>
          <FormError error={submit.error} testId="secure-account-error" />
          <Button
            type="button"
            variant="danger"
            pending={submit.pending}
            data-testid="secure-account-submit"
            onClick={async () => {
              const done = await submit.run({ token });
              if (done) navigate(`/reset-password?token=${encodeURIComponent(done.resetToken)}`, { replace: true });
            }}
          >
            {t("secureAccount.submit")}
          </Button>
        </>
      )}
    </AuthLayout>
  );
}
