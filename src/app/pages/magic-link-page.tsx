import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { EmailOnlyForm } from "../components/auth-forms.js";
import { AuthLayout } from "../components/shell.js";
import { Button, FormError, Notice } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useT } from "../lib/i18n.js";
import { safeNextPath, useSubmit } from "../lib/use-submit.js";

/**
 * Where a mailed sign-in link lands. Opening it spends nothing (mail scanners open every link); the
 * button does, by taking the browser to the API, which signs in and comes back to callbackURL.
 */
export function MagicLinkPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const t = useT();
  const verify = () => {
    const query = new URLSearchParams({ token: token ?? "" });
    for (const key of ["callbackURL", "newUserCallbackURL", "errorCallbackURL"]) {
      const value = params.get(key);
      if (value) query.set(key, value);
    }
    // Without a callbackURL the API would answer JSON: come back to the app's home instead.
    if (!query.has("callbackURL")) query.set("callbackURL", "/");
    window.location.assign(`${authClient.apiURL}/magic-link/verify?${query}`);
  };
  return (
    <AuthLayout titleKey="magicLink.landingTitle">
      {token ? (
        <>
          <p>{t("magicLink.landingIntro")}</p>
          <Button type="button" onClick={verify} data-testid="magic-link-continue">
            {t("signIn.submit")}
          </Button>
        </>
      ) : (
        <FormError error="INVALID_TOKEN" testId="magic-link-error" />
      )}
    </AuthLayout>
  );
}

/** "Email me a sign-in link": the same answer whether or not the address has an account. */
export function MagicLinkRequestPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get("redirectTo"));
  const submit = useSubmit(authClient.signIn.magicLink);
  const [sent, setSent] = useState(false);
  const t = useT();
  return (
    <AuthLayout titleKey="magicLink.title">
      {sent ? (
        <Notice testId="magic-link-sent">{t("magicLink.sent")}</Notice>
      ) : (
        <>
          <p>{t("magicLink.intro")}</p>
          <EmailOnlyForm
            testId="magic-link"
            submitLabel={t("magicLink.submit")}
            pending={submit.pending}
            error={submit.error}
            onSubmit={async ({ email }) => {
              if (await submit.run({ email, callbackURL: next, errorCallbackURL: "/sign-in" })) setSent(true);
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
