import { Link } from "react-router";
import { authClient } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
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
  return (
    <Card title="Save your account" testId="save-guest-card">
      <p>
        You are using a guest account. Save it to keep your work: your organizations and teams move to the account you
        create or sign in to.
      </p>
      <div className="actions">
        {config.emailAndPassword.enabled && !config.emailAndPassword.disableSignUp && (
          <Link className="button primary" to="/sign-up?redirectTo=%2Faccount" data-testid="save-guest-sign-up">
            Create an account with email
          </Link>
        )}
        <ProviderButtons
          providers={config.socialProviders}
          pending={social.pending}
          testIdPrefix="save-guest-social"
          onChoose={(provider) => void social.run({ provider, callbackURL: "/account", errorCallbackURL: "/account" })}
        />
        <Link className="button secondary" to="/sign-in?redirectTo=%2Faccount" data-testid="save-guest-sign-in">
          I already have an account
        </Link>
      </div>
      <FormError error={social.error} />
    </Card>
  );
}
