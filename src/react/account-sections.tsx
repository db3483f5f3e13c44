import { useState } from "react";
import type { LinkedAccount } from "../contract/api-models.js";
import type { Translate } from "../i18n/index.js";
import {
  Actions,
  Button,
  Checkbox,
  ErrorMessage,
  Form,
  Loading,
  Notice,
  Panel,
  PasswordField,
  useFrame,
} from "./form-parts.js";
import { useFormatDate } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import type { ServerOptions } from "./server-options.js";
import { useCall } from "./use-call.js";

/** A sign-in method's name for people: "Email and password", or the provider id capitalised. */
export const providerLabel = (id: string, t: Translate) =>
  id === "credential" ? t("provider.credential") : id.charAt(0).toUpperCase() + id.slice(1);

export interface Accounts {
  data: LinkedAccount[] | null;
  error: { code?: string; message?: string } | null;
  pending: boolean;
  reload: () => void;
}

/** The sign-in methods linked to the account; another provider can be linked, one can be unlinked (not the last). */
export function LinkedSection({
  accounts,
  providers,
  returnHref,
}: {
  accounts: Accounts;
  providers: string[];
  /** Where the provider sends the browser back to (this section's address). */
  returnHref: string;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const formatDate = useFormatDate();
  const unlink = useCall(client.unlinkAccount);
  const link = useCall(client.linkSocial);
  const list = accounts.data ?? [];
  const linked = new Set(list.map((a) => a.providerId));
  const pending = unlink.pending || link.pending;
  return (
    <Panel title={t("linked.title")} testId="linked-card">
      {accounts.pending ? (
        <Loading />
      ) : accounts.error ? (
        <ErrorMessage error={accounts.error} />
      ) : (
        <>
          <ul className="gh-list" data-testid="accounts-list">
            {list.map((account) => (
              <li key={account.id} className="gh-list-row" data-testid="account-row">
                <div>
                  <strong>{providerLabel(account.providerId, t)}</strong>
                  <p className="gh-hint">{t("linked.since", { date: formatDate(account.createdAt) })}</p>
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  pending={pending}
                  disabled={list.length < 2}
                  data-testid={`account-unlink-${account.providerId}`}
                  onClick={async () => {
                    if (await unlink.run({ accountId: account.id })) accounts.reload();
                  }}
                >
                  {t("linked.unlink")}
                </Button>
              </li>
            ))}
          </ul>
          <Actions>
            {providers
              .filter((p) => !linked.has(p))
              .map((provider) => (
                <Button
                  key={provider}
                  type="button"
                  variant="secondary"
                  pending={pending}
                  data-testid={`account-link-${provider}`}
                  onClick={() => void link.run({ provider, callbackURL: returnHref, errorCallbackURL: returnHref })}
                >
                  {t("linked.link", { provider: providerLabel(provider, t) })}
                </Button>
              ))}
          </Actions>
        </>
      )}
      <ErrorMessage error={unlink.error ?? link.error} />
    </Panel>
  );
}

/** Deletion asks for the password, or (when the server mails a confirmation) just a clear yes. */
export function DeleteSection({
  options,
  hasPassword,
  loading,
  afterDeleteHref,
  onDeleted,
}: {
  options: ServerOptions["deleteUser"];
  hasPassword: boolean;
  loading: boolean;
  /** Where the mailed confirmation link lands once it deleted the account. */
  afterDeleteHref: string;
  /** Signed out and deleted (not when a confirmation mail went out instead). */
  onDeleted: () => void;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const remove = useCall(client.deleteUser);
  const [password, setPassword] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const [mailed, setMailed] = useState(false);
  if (!options.enabled) return <Notice>{t("deleteAccount.disabled")}</Notice>;
  const byMail = options.sendDeleteAccountVerification;
  const submit = async () => {
    if (!confirmed) return;
    const data = await remove.run({ ...(hasPassword && !byMail ? { password } : {}), callbackURL: afterDeleteHref });
    if (!data) return;
    if (data.message === "Verification email sent") return setMailed(true);
    await client.$store.session.refetch();
    onDeleted();
  };
  return (
    <Panel title={t("deleteAccount.title")} testId="delete-account-card">
      {loading ? (
        <Loading />
      ) : mailed ? (
        <Notice testId="delete-account-mailed">{t("deleteAccount.mailed")}</Notice>
      ) : (
        <Form label={t("deleteAccount.title")} error={remove.error} onSubmit={() => void submit()}>
          <p>{t("deleteAccount.intro")}</p>
          {hasPassword && !byMail && (
            <PasswordField
              label={t("field.password")}
              testId="delete-account-password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
          {byMail && <p className="gh-hint">{t("deleteAccount.byMail")}</p>}
          <Checkbox
            label={t("deleteAccount.confirm")}
            testId="delete-account-confirm"
            checked={confirmed}
            onChange={setConfirmed}
          />
          <ErrorMessage error={remove.error} />
          <Actions>
            <Button variant="danger" pending={remove.pending} disabled={!confirmed} data-testid="delete-account-submit">
              {byMail ? t("deleteAccount.sendLink") : t("deleteAccount.submit")}
            </Button>
          </Actions>
        </Form>
      )}
    </Panel>
  );
}
