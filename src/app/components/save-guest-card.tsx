import { Link } from "react-router";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useT } from "../lib/i18n.js";
import { useSubmit } from "../lib/use-submit.js";
import { ProviderButtons } from "./provider-buttons.js";
import { Card, FormError } from "./ui.js";

/**
 * What a guest sees on the account pages instead of email, password and verification settings: how
 * to keep the account. Signing up or in from this session moves the guest's organizations, teams and
 * invitations to the real account (services/anonymous.ts).
 */
export function SaveGuestAccountCard() {
  const config = useAppConfig();
  const social = useSubmit(authClient.signIn.social);
  const t = useT();
  return (
    <Card title={t("guest.save.title")} testId="save-guest-card">
      <p>{t("guest.save.intro")}</p>
      <div className="actions">
        {config.emailAndPassword.enabled && !config.emailAndPassword.disableSignUp && (
          <Link className="button primary" to="/sign-up?redirectTo=%2Faccount" data-testid="save-guest-sign-up">
            {t("guest.save.signUp")}
          </Link>
        )}
        <ProviderButtons
          providers={config.socialProviders}
          pending={social.pending}
          testIdPrefix="save-guest-social"
          onChoose={(provider) => void social.run({ provider, callbackURL: "/account", errorCallbackURL: "/account" })}
        />
        <Link className="button secondary" to="/sign-in?redirectTo=%2Faccount" data-testid="save-guest-sign-in">
          {t("guest.save.signIn")}
        </Link>
      </div>
      <FormError error={social.error} />
    </Card>
  );
}
