import { useSearchParams } from "react-router";
import { AuthLayout } from "../components/shell.js";
import { Button, FormError } from "../components/ui.js";
import { authClient } from "../lib/client.js";
import { useT } from "../lib/i18n.js";

/** The link's redirect targets, passed on to the API as they came (the server checks them). */
const REDIRECT_FIELDS = ["callbackURL", "newUserCallbackURL", "errorCallbackURL"] as const;

/**
 * Where a mailed sign-in link lands, and where the API sends a link followed from anywhere but the
 * browser that asked for it. Opening it spends nothing (mail scanners open every link); the button
 * posts the form to the API (same origin, so the origin check lets it through), which signs in and
 * comes back to callbackURL.
 */
export function MagicLinkPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const t = useT();
  return (
    <AuthLayout titleKey="magicLink.landingTitle">
      {token ? (
        <form method="post" action={`${authClient.apiURL}/magic-link/verify`}>
          <p>{t("magicLink.landingIntro")}</p>
          <input type="hidden" name="token" value={token} />
          {REDIRECT_FIELDS.map((key) => {
            // Without a callbackURL the API would answer JSON: come back to the app's home instead.
            const value = params.get(key) || (key === "callbackURL" ? "/" : null);
            return value ? <input key={key} type="hidden" name={key} value={value} /> : null;
          })}
          <Button type="submit" data-testid="magic-link-continue">
            {t("signIn.submit")}
          </Button>
        </form>
      ) : (
        <FormError error="INVALID_TOKEN" testId="magic-link-error" />
      )}
    </AuthLayout>
  );
}
