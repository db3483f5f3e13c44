import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { SignIn, type SignInView, SignUp, signedOAuthQuery, useSession } from "../../react/index.js";
import { EmailOnlyForm, NewPasswordForm } from "../components/auth-forms.js";
import { AuthLayout, ComponentLayout, withCredentialsRemovedNotice } from "../components/shell.js";
import { Button, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useI18n, useT } from "../lib/i18n.js";
import { safeNextPath, useSubmit } from "../lib/use-submit.js";

/** The exported components' shared props in this application: its language and its router. */
function useComponentProps() {
  const { locale } = useI18n();
  const navigate = useNavigate();
  return { localization: locale, navigate: (href: string) => navigate(href) };
}

/** `?redirectTo=` kept on the links between sign-in and sign-up. */
function withParams(path: string, params: URLSearchParams): string {
  return params.size ? `${path}?${params}` : path;
}

export function SignUpPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const props = useComponentProps();
  // Signing up on the way to an OAuth application: the new account carries on with its request.
  const oauthQuery = signedOAuthQuery(params);
  return (
    <ComponentLayout titleKey="signUp.title">
      <SignUp
        {...props}
        afterSignUpHref={next}
        onSignedUp={() =>
          oauthQuery ? void authClient.oauth2.continue({ oauth_query: oauthQuery }) : props.navigate(next)
        }
        signInHref={withParams("/sign-in", params)}
        defaultEmail={params.get("email") ?? undefined}
      />
    </ComponentLayout>
  );
}

/**
 * Sign-in in every form the application offers: the methods (/sign-in), a sign-in link
 * (/sign-in/link), an emailed code (/sign-in/code) and the second factor (/two-factor, where a
 * provider also sends an account with two-factor on). One component, SignIn, draws them all.
 */
export function SignInPage({ view = "methods" }: { view?: SignInView }) {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const props = useComponentProps();
  const titles = {
    methods: "signIn.title",
    link: "magicLink.title",
    code: "emailCode.title",
    "two-factor": "twoFactor.title",
    sso: "sso.signIn.title",
  } as const;
  const t = useT();
  // The OAuth provider's login page (its loginPage): the signed request rides along to the second factor.
  const oauthQuery = signedOAuthQuery(params);
  const carried = new URLSearchParams(oauthQuery ?? "");
  carried.set("redirectTo", next);
  return (
    <ComponentLayout titleKey={titles[view]}>
      {oauthQuery && view === "methods" && <Notice testId="sign-in-oauth">{t("oauth.signIn.continue")}</Notice>}
      {/* After UserProfile deleted the account (account-pages.tsx). */}
      {params.get("accountDeleted") === "true" && <Notice testId="account-deleted">{t("profile.deleted")}</Notice>}
      <SignIn
        {...props}
        key={view}
        initialView={view}
        afterSignInHref={next}
        onSignedIn={({ credentialsRemoved }) =>
          props.navigate(credentialsRemoved ? withCredentialsRemovedNotice(next) : next)
        }
        error={params.get("error")}
        signUpHref={withParams("/sign-up", params)}
        twoFactorHref={`/two-factor?${carried}`}
        oauthQuery={oauthQuery}
      />
    </ComponentLayout>
  );
}

export const SignInLinkPage = () => <SignInPage view="link" />;
export const EmailCodePage = () => <SignInPage view="code" />;
export const TwoFactorPage = () => <SignInPage view="two-factor" />;

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
