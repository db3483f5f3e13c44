import { useEffect, useMemo, useState } from "react";
import {
  Button,
  ComponentLink,
  ComponentRoot,
  EMAIL_PATTERN,
  ErrorMessage,
  Field,
  type FieldMessage,
  Form,
  Notice,
  PasswordField,
} from "./form-parts.js";
import { type Appearance, componentTranslator, type Labels, type Localization } from "./localization.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { useAuthClient } from "./provider.js";
import { useServerOptions } from "./server-options.js";
import { useCall } from "./use-call.js";

export interface SignUpProps {
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
  /** Where to go once signed up and signed in (default `/`). */
  afterSignUpHref?: string;
  /** Called once signed in instead of going to afterSignUpHref. */
  onSignedUp?: () => void;
  /** Where "Sign in" goes; null hides it. */
  signInHref?: string | null;
  /** Where the verification link lands (default `/verified`). */
  verifiedHref?: string;
  /** The email field's first value (an invitation's address). */
  defaultEmail?: string;
}

type Values = { name: string; email: string; password: string };

/** The server's refusals of the password itself: said once, under the field, not again in an alert. */
const PASSWORD_REFUSALS = new Set(["PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG", "PASSWORD_TOO_COMMON"]);

/**
 * The sign-up screen: name, email and a password (with its strength), within the server's length
 * limits. When the server wants the address verified first, it says to check the mail.
 *
 * @example
 * <SignUp navigate={navigate} afterSignUpHref="/welcome" signInHref="/sign-in" verifiedHref="/verified" />
 */
export function SignUp({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  afterSignUpHref = "/",
  onSignedUp,
  signInHref = "/sign-in",
  verifiedHref = "/verified",
  defaultEmail = "",
}: SignUpProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const options = useServerOptions();
  const signUp = useCall(client.signUp.email);
  const [values, setValues] = useState<Values>({ name: "", email: defaultEmail, password: "" });
  const [errors, setErrors] = useState<Partial<Record<keyof Values, FieldMessage>>>({});
  const [checkMail, setCheckMail] = useState(false);
  const min = options?.emailAndPassword.minPasswordLength ?? 8;
  const max = options?.emailAndPassword.maxPasswordLength ?? 128;
  const refusal = signUp.error?.code && PASSWORD_REFUSALS.has(signUp.error.code) ? signUp.error.code : null;
  const setSignUpError = signUp.setError;
  useEffect(() => {
    if (!refusal) return;
    setErrors((found) => ({ ...found, password: { key: `error.${refusal}` as FieldMessage["key"] } }));
    setSignUpError(null);
  }, [refusal, setSignUpError]);
  const field = (key: keyof Values) => ({
    value: values[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [key]: event.target.value }),
  });

  const onSubmit = async () => {
    const found: typeof errors = {};
    if (!values.name.trim()) found.name = { key: "validation.name" };
    if (!EMAIL_PATTERN.test(values.email.trim())) found.email = { key: "validation.email" };
    if (values.password.length < min) found.password = { key: "validation.minLength", vars: { min } };
    else if (values.password.length > max) found.password = { key: "validation.maxLength", vars: { max } };
    setErrors(found);
    if (Object.keys(found).length) return;
    const data = await signUp.run({
      name: values.name.trim(),
      email: values.email.trim(),
      password: values.password,
      callbackURL: verifiedHref,
    });
    if (!data) return;
    if (!data.token) return setCheckMail(true);
    await client.$store.session.refetch();
    if (onSignedUp) onSignedUp();
    else navigate(afterSignUpHref);
  };

  return (
    <ComponentRoot t={t} navigate={navigate} appearance={appearance} title={t("signUp.title")} testId="gh-sign-up">
      {checkMail ? (
        <Notice testId="sign-up-check-mail">{t("signUp.checkMail")}</Notice>
      ) : (
        <Form label={t("signUp.form")} error={signUp.error} onSubmit={() => void onSubmit()}>
          <Field label={t("field.name")} testId="sign-up-name" autoComplete="name" {...field("name")} />
          <Field
            label={t("field.email")}
            testId="sign-up-email"
            type="email"
            autoComplete="email"
            {...field("email")}
          />
          <PasswordField
            label={t("field.password")}
            testId="sign-up-password"
            meter={{ minLength: min }}
            autoComplete="new-password"
            hint={t("field.password.hint", { min })}
            {...field("password")}
          />
          <ErrorMessage error={signUp.error} />
          <Button pending={signUp.pending} data-testid="sign-up-submit">
            {t("signUp.submit")}
          </Button>
        </Form>
      )}
      {signInHref && (
        <p className="gh-switch">
          {t("signUp.haveAccount")} <ComponentLink href={signInHref}>{t("signIn.submit")}</ComponentLink>
        </p>
      )}
    </ComponentRoot>
  );
}
