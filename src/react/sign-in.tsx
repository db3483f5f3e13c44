import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { RECIPIENT_CAP, RECIPIENT_WINDOW_MS, RESEND_COOLDOWN_MS } from "../contract/mail-limits.js";
import type { MessageKey } from "../i18n/index.js";
import { CodeInput } from "./code-input.js";
import {
  Button,
  Checkbox,
  ComponentLink,
  ComponentRoot,
  EMAIL_PATTERN,
  ErrorMessage,
  Field,
  type FieldMessage,
  Form,
  Notice,
  PasswordField,
  useFrame,
} from "./form-parts.js";
import { type Appearance, componentTranslator, type Labels, type Localization } from "./localization.js";
import type { HasCode } from "./messages.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { GoogleOneTap } from "./one-tap.js";
import { useAuthClient, useSession } from "./provider.js";
import { type ServerOptions, useServerOptions } from "./server-options.js";
import { useCall } from "./use-call.js";
import { getPasskeyAssertion, supportsPasskeyAutofill } from "./webauthn.js";

/** The screens SignIn moves through: the methods, a sign-in link, an emailed code, the second factor. */
export type SignInView = "methods" | "link" | "code" | "two-factor" | "sso";

export interface SignInProps {
  /** The language of every word shown (English and German ship). */
  localization?: Localization;
  /** Words to use instead of the catalogue's, by key. */
  labels?: Labels;
  appearance?: Appearance;
  /** Follows a link inside the app (e.g. a router's navigate); defaults to a page load. */
  navigate?: Navigate;
  /** Where to go once signed in (default `/`); also where a provider and a sign-in link come back to. */
  afterSignInHref?: string;
  /** Called once signed in instead of going to afterSignInHref (`credentialsRemoved`: see docs/client.md). */
  onSignedIn?: (info: { credentialsRemoved: boolean }) => void;
  /** Where "Create an account" goes; null hides it (it is hidden anyway when the server turns sign-up off). */
  signUpHref?: string | null;
  /** Where "Forgot your password?" goes; null hides it. */
  forgotPasswordHref?: string | null;
  /** This sign-in page: where a provider or a sign-in link sends an error back to. */
  signInHref?: string;
  /** Where the second factor is asked for; without it SignIn asks in place. */
  twoFactorHref?: string;
  /** The screen to open on (`two-factor` on the page a provider sends an account with two-factor to). */
  initialView?: SignInView;
  /** An error code handed back to the page (`?error=` after a provider or a link). */
  error?: string | null;
  /**
   * The OAuth provider's signed request when this is its login page (`signedOAuthQuery(search)`):
   * once signed in, the browser goes on with the authorization (consent page or the application)
   * instead of to afterSignInHref.
   */
  oauthQuery?: string | null;
}

const TITLES: Record<SignInView, MessageKey> = {
  methods: "signIn.title",
  link: "magicLink.title",
  code: "emailCode.title",
  "two-factor": "twoFactor.title",
  sso: "sso.signIn.title",
};

/**
 * The sign-in screen: every method the server's options switch on (password, passkey, sign-in link,
 * email code, providers, guest) and the second-factor step. Needs an AuthProvider above it.
 *
 * @example
 * <AuthProvider client={client}>
 *   <SignIn localization="de" navigate={navigate} afterSignInHref="/dashboard" forgotPasswordHref="/forgot-password" />
 * </AuthProvider>
 */
export function SignIn({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  afterSignInHref = "/",
  onSignedIn,
  signUpHref = "/sign-up",
  forgotPasswordHref = "/forgot-password",
  signInHref = "/sign-in",
  twoFactorHref,
  initialView = "methods",
  error,
  oauthQuery,
}: SignInProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const options = useServerOptions();
  const [view, setView] = useState<SignInView>(initialView);
  // The address typed on one screen is there on the next (methods, link, code).
  const [email, setEmail] = useState("");
  const [oauthError, setOAuthError] = useState<HasCode | null>(null);

  const enter = async (result: object | null) => {
    if (!result) return;
    // Two-factor on: no session yet; the second step finishes the sign-in.
    if ("twoFactorRedirect" in result) {
      if (twoFactorHref) navigate(twoFactorHref);
      else setView("two-factor");
      return;
    }
    if (oauthQuery) {
      // A sign-in that carried the request answered where to go (the client follows it); any other
      // (passkey, code, second factor) asks the provider now. Either way the browser leaves for the
      // consent page or the application.
      if ("redirect" in result && result.redirect === true) return;
      const next = await client.oauth2.continue({ oauth_query: oauthQuery });
      if (next.error) setOAuthError(next.error);
      return;
    }
    // Read the new session before leaving, so the next screen never sees the old (empty) one.
    await client.$store.session.refetch();
    const credentialsRemoved = "credentialsRemoved" in result && result.credentialsRemoved === true;
    if (onSignedIn) onSignedIn({ credentialsRemoved });
    else navigate(afterSignInHref);
  };
  const back = () => setView("methods");
  // A sign-in that leaves the page (a provider, a mailed link, SSO) comes back to the authorization
  // request itself, which the new session answers; an error comes back here with the request kept.
  const returnHref = oauthQuery ? `${client.apiURL}/oauth2/authorize?${oauthQuery}` : afterSignInHref;
  const errorHref = oauthQuery ? `${signInHref}${signInHref.includes("?") ? "&" : "?"}${oauthQuery}` : signInHref;

  let body: ReactNode = null;
  if (options) {
    if (view === "methods")
      body = (
        <Methods
          options={options}
          oauthQuery={oauthQuery ?? null}
          enter={enter}
          setView={setView}
          afterSignInHref={returnHref}
          signInHref={errorHref}
          signUpHref={signUpHref}
          forgotPasswordHref={forgotPasswordHref}
          redirectError={error ?? null}
          email={email}
          setEmail={setEmail}
        />
      );
    else if (view === "link")
      body = <SignInLink afterSignInHref={returnHref} signInHref={errorHref} back={back} initialEmail={email} />;
    else if (view === "code")
      body = (
        <EmailCode
          enter={enter}
          back={back}
          initialEmail={email}
          // Servers from before emailOTPLength mailed 6 digits, always.
          length={options.emailOTPLength ?? 6}
        />
      );
    else if (view === "sso")
      body = <SingleSignOn afterSignInHref={returnHref} signInHref={errorHref} back={back} initialEmail={email} />;
    else body = <SecondFactor options={options} enter={enter} />;
  }
  return (
    <ComponentRoot t={t} navigate={navigate} appearance={appearance} title={t(TITLES[view])} testId="gh-sign-in">
      <ErrorMessage error={oauthError} testId="sign-in-oauth-error" />
      {body ?? (
        <p className="gh-hint" role="status">
          {t("common.loading")}
        </p>
      )}
    </ComponentRoot>
  );
}

type Enter = (result: object | null) => Promise<void>;

function Methods({
  options,
  enter,
  setView,
  afterSignInHref,
  signInHref,
  signUpHref,
  forgotPasswordHref,
  redirectError,
  email,
  setEmail,
  oauthQuery,
}: {
  oauthQuery: string | null;
  email: string;
  setEmail: (email: string) => void;
  options: ServerOptions;
  enter: Enter;
  setView: (view: SignInView) => void;
  afterSignInHref: string;
  signInHref: string;
  signUpHref: string | null;
  forgotPasswordHref: string | null;
  redirectError: string | null;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const session = useSession();
  const emailSignIn = useCall(client.signIn.email);
  const guest = useCall(client.signIn.anonymous);
  const social = useCall(client.signIn.social);
  const [passkeyError, setPasskeyError] = useState<HasCode | null>(null);
  const [values, setValues] = useState({ password: "", rememberMe: true });
  const [errors, setErrors] = useState<Partial<Record<"email" | "password", FieldMessage>>>({});
  const password = options.emailAndPassword.enabled;
  // The ceremony starts once per screen; it finishes with whatever enter is current then.
  const latestEnter = useRef(enter);
  latestEnter.current = enter;

  // Passkey autofill: the browser offers the site's passkeys in the email field; a choice there
  // signs in. Starting the button's ceremony cancels this one.
  useEffect(() => {
    if (!options.passkey || !password) return;
    let active = true;
    void (async () => {
      if (!(await supportsPasskeyAutofill())) return;
      const challenge = await client.passkey.generateAuthenticateOptions();
      if (!active || challenge.error) return;
      try {
        const response = await getPasskeyAssertion(challenge.data as never, true);
        const verified = await client.passkey.verifyAuthentication({ response });
        if (active && !verified.error) await latestEnter.current(verified.data);
      } catch {
        // Cancelled (the screen went away or the button took over): nothing to show.
      }
    })();
    return () => {
      active = false;
    };
  }, [client, options.passkey, password]);

  const onPassword = async () => {
    const found: typeof errors = {};
    if (!EMAIL_PATTERN.test(email.trim())) found.email = { key: "validation.email" };
    if (!values.password) found.password = { key: "validation.password" };
    setErrors(found);
    if (Object.keys(found).length) return;
    await enter(
      await emailSignIn.run({ ...values, email: email.trim(), ...(oauthQuery ? { oauth_query: oauthQuery } : {}) }),
    );
  };
  const onPasskey = async () => {
    setPasskeyError(null);
    const challenge = await client.passkey.generateAuthenticateOptions();
    if (challenge.error) return setPasskeyError(challenge.error);
    let response: Awaited<ReturnType<typeof getPasskeyAssertion>>;
    try {
      response = await getPasskeyAssertion(challenge.data as never);
    } catch {
      return setPasskeyError({ code: "AUTH_CANCELLED" });
    }
    const verified = await client.passkey.verifyAuthentication({ response });
    if (verified.error) return setPasskeyError(verified.error);
    await enter(verified.data);
  };
  // The reply carries {url, redirect: true}: the client takes the browser to the provider.
  const onSocial = (provider: string) =>
    void social.run({ provider, callbackURL: afterSignInHref, errorCallbackURL: signInHref });

  const others =
    options.passkey || options.magicLink || options.emailOTP || options.sso || options.socialProviders.length > 0;
  const signedIn = session.data && !session.data.user.isAnonymous ? session.data.user : null;
  return (
    <>
      {redirectError && <ErrorMessage error={redirectError} testId="redirect-error" />}
      {/* The provider asks for a new sign-in (prompt=login, max_age): the current session will not do. */}
      {signedIn && !oauthQuery && (
        <Notice>
          {t("signIn.signedInAs", { email: signedIn.email })}{" "}
          <ComponentLink href={afterSignInHref}>{t("common.continue")}</ComponentLink>
        </Notice>
      )}
      {password && (
        <Form label={t("signIn.form")} error={emailSignIn.error} onSubmit={() => void onPassword()}>
          <Field
            label={t("field.email")}
            testId="sign-in-email"
            type="email"
            // "webauthn" lets the browser offer passkeys in this field's autofill (conditional UI).
            autoComplete={options.passkey ? "username webauthn" : "email"}
            value={email}
            error={errors.email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <PasswordField
            label={t("field.password")}
            testId="sign-in-password"
            autoComplete="current-password"
            value={values.password}
            error={errors.password}
            onChange={(e) => setValues({ ...values, password: e.target.value })}
          />
          <div className="gh-row">
            <Checkbox
              label={t("signIn.rememberMe")}
              testId="sign-in-remember"
              checked={values.rememberMe}
              onChange={(rememberMe) => setValues({ ...values, rememberMe })}
            />
            {forgotPasswordHref && (
              <ComponentLink href={forgotPasswordHref} testId="forgot-password-link">
                {t("signIn.forgotPassword")}
              </ComponentLink>
            )}
          </div>
          <ErrorMessage error={emailSignIn.error} />
          <Button pending={emailSignIn.pending} data-testid="sign-in-submit">
            {t("signIn.submit")}
          </Button>
        </Form>
      )}
      {(others || options.anonymous) && (
        <fieldset className="gh-alternatives">
          <legend className="gh-visually-hidden">{t("signIn.alternatives")}</legend>
          {password && (
            <div className="gh-divider" aria-hidden="true">
              <span>{t("signIn.or")}</span>
            </div>
          )}
          {options.passkey && (
            <Button type="button" variant="secondary" onClick={() => void onPasskey()} data-testid="sign-in-passkey">
              {t("signIn.passkey")}
            </Button>
          )}
          {options.magicLink && (
            <Button type="button" variant="secondary" onClick={() => setView("link")} data-testid="magic-link-link">
              {t("signIn.magicLink")}
            </Button>
          )}
          {options.emailOTP && (
            <Button type="button" variant="secondary" onClick={() => setView("code")} data-testid="email-code-link">
              {t("signIn.emailCode")}
            </Button>
          )}
          {options.sso && (
            <Button type="button" variant="secondary" onClick={() => setView("sso")} data-testid="sign-in-sso">
              {t("sso.signIn.button")}
            </Button>
          )}
          {options.socialProviders.map((provider) => (
            <Button
              key={provider}
              type="button"
              variant="secondary"
              pending={social.pending}
              data-testid={`sign-in-social-${provider}`}
              onClick={() => onSocial(provider)}
            >
              {t("provider.continueWith", { provider: provider.charAt(0).toUpperCase() + provider.slice(1) })}
            </Button>
          ))}
          <ErrorMessage error={passkeyError} testId="passkey-error" />
          {options.anonymous && (
            <Button
              type="button"
              variant="text"
              pending={guest.pending}
              data-testid="sign-in-guest"
              onClick={() => void guest.run().then(enter)}
            >
              {t("signIn.guest")}
            </Button>
          )}
          <ErrorMessage error={social.error ?? guest.error} testId="alternative-error" />
        </fieldset>
      )}
      {options.oneTapClientId && <GoogleOneTap clientId={options.oneTapClientId} callbackURL={afterSignInHref} />}
      {signUpHref && !options.emailAndPassword.disableSignUp && (
        <p className="gh-switch">
          {t("signIn.newHere")} <ComponentLink href={signUpHref}>{t("signIn.createAccount")}</ComponentLink>
        </p>
      )}
    </>
  );
}

/** An email field and its submit, for the link and the code. */
function EmailStep({
  testId,
  label,
  submitLabel,
  pending,
  error,
  onEmail,
  initialEmail,
}: {
  initialEmail: string;
  testId: string;
  /** The field's label (default: "Email"). */
  label?: string;
  submitLabel: string;
  pending: boolean;
  error: HasCode | null;
  onEmail: (email: string) => void;
}) {
  const { t } = useFrame();
  const [email, setEmail] = useState(initialEmail);
  const [invalid, setInvalid] = useState<FieldMessage | undefined>();
  return (
    <Form
      label={submitLabel}
      error={error}
      onSubmit={() => {
        const valid = EMAIL_PATTERN.test(email.trim());
        setInvalid(valid ? undefined : { key: "validation.email" });
        if (valid) onEmail(email.trim());
      }}
    >
      <Field
        label={label ?? t("field.email")}
        testId={`${testId}-email`}
        type="email"
        autoComplete="email"
        value={email}
        error={invalid}
        onChange={(e) => setEmail(e.target.value)}
      />
      <ErrorMessage error={error} />
      <Button pending={pending} data-testid={`${testId}-submit`}>
        {submitLabel}
      </Button>
    </Form>
  );
}

function BackButton({ back }: { back: () => void }) {
  const { t } = useFrame();
  return (
    <Button type="button" variant="text" onClick={back} data-testid="sign-in-back">
      {t("common.backToSignIn")}
    </Button>
  );
}

/** An email-first step that leaves the page (a mailed link, an identity provider) and comes back. */
interface EmailFirstStepProps {
  afterSignInHref: string;
  signInHref: string;
  back: () => void;
  initialEmail: string;
}

/** "Email me a sign-in link": the same answer whether or not the address has an account. */
function SignInLink({ afterSignInHref, signInHref, back, initialEmail }: EmailFirstStepProps) {
  const { t } = useFrame();
  const client = useAuthClient();
  const send = useCall(client.signIn.magicLink);
  const [sent, setSent] = useState(false);
  return (
    <>
      {sent ? (
        <Notice testId="magic-link-sent">{t("magicLink.sent")}</Notice>
      ) : (
        <>
          <p className="gh-intro">{t("magicLink.intro")}</p>
          <EmailStep
            testId="magic-link"
            initialEmail={initialEmail}
            submitLabel={t("magicLink.submit")}
            pending={send.pending}
            error={send.error}
            onEmail={async (email) => {
              if (await send.run({ email, callbackURL: afterSignInHref, errorCallbackURL: signInHref })) setSent(true);
            }}
          />
        </>
      )}
      <BackButton back={back} />
    </>
  );
}

/** The codes of POST /sign-in/sso in this screen's words: a domain with no connection is the usual one. */
const SSO_CODES: Record<string, string> = {
  SSO_PROVIDER_NOT_FOUND: "SSO_NO_CONNECTION",
  DOMAIN_NOT_VERIFIED: "SSO_DOMAIN_NOT_VERIFIED",
};

/**
 * "Sign in with SSO", email first: the work email's domain picks the organization's connection; the
 * reply sends the browser to the identity provider, which comes back to afterSignInHref.
 */
function SingleSignOn({ afterSignInHref, signInHref, back, initialEmail }: EmailFirstStepProps) {
  const { t } = useFrame();
  const client = useAuthClient();
  const start = useCall(client.signIn.sso);
  const code = start.error?.code && SSO_CODES[start.error.code];
  const error = code ? { ...start.error, code } : start.error;
  return (
    <>
      <p className="gh-intro">{t("sso.signIn.intro")}</p>
      <EmailStep
        testId="sso"
        initialEmail={initialEmail}
        label={t("sso.signIn.field")}
        submitLabel={t("sso.signIn.submit")}
        pending={start.pending}
        error={error}
        onEmail={(email) => void start.run({ email, callbackURL: afterSignInHref, errorCallbackURL: signInHref })}
      />
      <BackButton back={back} />
    </>
  );
}

/** "Email me a code": the address first, then the digits from the mail, with a paced "Resend code". */
function EmailCode({
  enter,
  back,
  initialEmail,
  length,
}: {
  enter: Enter;
  back: () => void;
  initialEmail: string;
  /** Digits in the mailed code: one box each. */
  length: number;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const send = useCall(client.emailOtp.sendVerificationOtp);
  const signIn = useCall(client.signIn.emailOtp);
  const [email, setEmail] = useState<string | null>(null);
  const [otp, setOtp] = useState("");
  const [missing, setMissing] = useState(false);
  // When each code mail was asked for: the server takes RECIPIENT_CAP per address in its window.
  const [sentAt, setSentAt] = useState<number[]>([]);
  const resendWait = useResendWait(sentAt);
  const sendTo = async (address: string) => {
    if (!(await send.run({ email: address, type: "sign-in" }))) return false;
    setSentAt((times) => [...times, Date.now()]);
    return true;
  };
  const code = otp.replace(/\D/g, "");
  return (
    <>
      {email === null ? (
        <>
          <p className="gh-intro">{t("emailCode.intro")}</p>
          <EmailStep
            testId="email-code"
            initialEmail={initialEmail}
            submitLabel={t("signIn.emailCode")}
            pending={send.pending}
            error={send.error}
            onEmail={async (address) => {
              if (await sendTo(address)) setEmail(address);
            }}
          />
        </>
      ) : (
        <Form
          label={t("emailCode.field")}
          error={signIn.error}
          onSubmit={() => {
            setMissing(!code);
            if (code) void signIn.run({ email, otp: code }).then(enter);
          }}
        >
          <Notice testId="email-code-sent">{t("emailCode.sent", { email })}</Notice>
          <CodeInput
            label={t("emailCode.field")}
            testId="email-code-otp"
            length={length}
            value={otp}
            onChange={setOtp}
            invalid={missing}
          />
          <ErrorMessage error={signIn.error ?? send.error} />
          <Button pending={signIn.pending} data-testid="email-code-submit">
            {t("signIn.submit")}
          </Button>
          <p className="gh-resend">
            <Button
              type="button"
              variant="secondary"
              pending={send.pending}
              disabled={resendWait > 0}
              aria-describedby={resendWait > 0 ? "gh-resend-wait" : undefined}
              data-testid="email-code-resend"
              onClick={() => void sendTo(email).then((sent) => sent && setOtp(""))}
            >
              {t("emailCode.resend")}
            </Button>
            {resendWait > 0 && (
              <span id="gh-resend-wait" className="gh-hint" data-testid="email-code-resend-wait">
                {t("emailCode.resendIn", { count: resendWait })}
              </span>
            )}
          </p>
        </Form>
      )}
      <BackButton back={back} />
    </>
  );
}

/**
 * Seconds until another code may be asked for: RESEND_COOLDOWN_MS after the last, and once the
 * address had RECIPIENT_CAP mails, until the oldest of them leaves the server's window.
 */
function useResendWait(sentAt: number[]): number {
  const [now, setNow] = useState(() => Date.now());
  const last = sentAt.at(-1);
  const recent = sentAt.filter((at) => now - at < RECIPIENT_WINDOW_MS);
  const until = Math.max(
    last === undefined ? 0 : last + RESEND_COOLDOWN_MS,
    recent.length >= RECIPIENT_CAP ? (recent[recent.length - RECIPIENT_CAP] as number) + RECIPIENT_WINDOW_MS : 0,
  );
  const wait = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [wait]);
  // A new send starts the clock from now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the count is the trigger
  useEffect(() => setNow(Date.now()), [sentAt.length]);
  return wait;
}

type Factor = "totp" | "backup" | "otp";

const FACTOR_LABELS = {
  totp: { field: "twoFactor.totp.field", hint: "twoFactor.totp.hint", switchTo: "twoFactor.totp.switch" },
  backup: { field: "twoFactor.backup.field", hint: "twoFactor.backup.hint", switchTo: "twoFactor.backup.switch" },
  otp: { field: "emailCode.field", hint: "twoFactor.otp.hint", switchTo: "signIn.emailCode" },
} as const satisfies Record<Factor, Record<"field" | "hint" | "switchTo", MessageKey>>;

/** The step after the first factor when the account has two-factor on. */
function SecondFactor({ options, enter }: { options: ServerOptions; enter: Enter }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const [factor, setFactor] = useState<Factor>("totp");
  const [code, setCode] = useState("");
  const [trustDevice, setTrustDevice] = useState(false);
  const [sent, setSent] = useState(false);
  const verifyTotp = useCall(client.twoFactor.verifyTotp);
  const verifyBackup = useCall(client.twoFactor.verifyBackupCode);
  const verifyOtp = useCall(client.twoFactor.verifyOtp);
  const sendOtp = useCall(client.twoFactor.sendOtp);
  const verify = { totp: verifyTotp, backup: verifyBackup, otp: verifyOtp }[factor];
  const error = verify.error ?? (factor === "otp" ? sendOtp.error : null);

  const choose = async (chosen: Factor) => {
    setFactor(chosen);
    setCode("");
    if (chosen === "otp" && !sent && (await sendOtp.run())) setSent(true);
  };
  const others = (["totp", "backup", ...(options.twoFactor.otp ? ["otp" as const] : [])] as Factor[]).filter(
    (other) => other !== factor,
  );
  return (
    <>
      {factor === "otp" && sent && <Notice testId="two-factor-otp-sent">{t("twoFactor.otp.sent")}</Notice>}
      <Form
        label={t("twoFactor.secondFactor")}
        error={error}
        onSubmit={() => void (code.trim() && verify.run({ code: code.trim(), trustDevice }).then(enter))}
      >
        <Field
          label={t(FACTOR_LABELS[factor].field)}
          hint={t(FACTOR_LABELS[factor].hint)}
          testId="two-factor-code"
          autoComplete="one-time-code"
          inputMode={factor === "backup" ? "text" : "numeric"}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Checkbox
          label={t("twoFactor.trust")}
          testId="two-factor-trust"
          checked={trustDevice}
          onChange={setTrustDevice}
        />
        <ErrorMessage error={error} />
        <Button pending={verify.pending} data-testid="two-factor-submit">
          {t("twoFactor.verify")}
        </Button>
      </Form>
      <fieldset className="gh-alternatives">
        <legend className="gh-visually-hidden">{t("twoFactor.alternatives")}</legend>
        <div className="gh-divider" aria-hidden="true">
          <span>{t("signIn.or")}</span>
        </div>
        {others.map((other) => (
          <Button
            key={other}
            type="button"
            variant="secondary"
            pending={other === "otp" && sendOtp.pending}
            onClick={() => void choose(other)}
            data-testid={`two-factor-use-${other}`}
          >
            {t(FACTOR_LABELS[other].switchTo)}
          </Button>
        ))}
      </fieldset>
    </>
  );
}
