import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import type { Translate } from "../../i18n/index.js";
import { useActiveMember, useListOrganizations, useSession } from "../../react/index.js";
import { ChangeEmailForm, ChangePasswordForm, DeleteAccountForm, ProfileForm } from "../components/account-forms.js";
import { describeDevice, LinkedAccountsList, SessionsList } from "../components/account-lists.js";
import { useConfirm } from "../components/confirm-dialog.js";
import { PasskeysCard } from "../components/passkeys-card.js";
import { ProfilePictureCard } from "../components/profile-picture.js";
import { SaveGuestAccountCard } from "../components/save-guest-card.js";
import { SecurityActivityCard } from "../components/security-activity-card.js";
import { SettingsLayout } from "../components/shell.js";
import { TwoFactorCard } from "../components/two-factor-card.js";
import { Button, Card, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { usePageTitle, useT } from "../lib/i18n.js";
import { useSubmit } from "../lib/use-submit.js";

export const accountNav = (t: Translate) => [
  { to: "/account", label: t("profile.title") },
  { to: "/account/security", label: t("security.title") },
  { to: "/account/sessions", label: t("sessions.nav") },
  { to: "/account/linked", label: t("linked.title") },
  { to: "/account/delete", label: t("deleteAccount.title") },
];

export function AccountLayout() {
  const t = useT();
  return <SettingsLayout title={t("nav.account")} items={accountNav(t)} />;
}

function useAccounts() {
  return useQuery({ queryKey: ["accounts"], queryFn: () => unwrap(authClient.listAccounts()) });
}

export function ProfilePage() {
  const session = useSession();
  const update = useSubmit(authClient.updateUser);
  const resend = useSubmit(authClient.sendVerificationEmail);
  const [saved, setSaved] = useState(false);
  const [resent, setResent] = useState(false);
  const t = useT();
  usePageTitle("profile.title");
  const user = session.data?.user;
  if (!user) return <Loading />;
  return (
    <>
      <ProfilePictureCard user={user} />
      <Card title={t("profile.title")} testId="profile-card">
        {saved && <Notice testId="profile-saved">{t("profile.saved")}</Notice>}
        <ProfileForm
          user={user}
          pending={update.pending}
          error={update.error}
          onSubmit={async (values) => setSaved(Boolean(await update.run(values)))}
        />
      </Card>
      {user.isAnonymous ? (
        <SaveGuestAccountCard />
      ) : (
        <Card title={t("verification.title")}>
          {user.emailVerified ? (
            <p data-testid="email-verified">{t("verification.verified", { email: user.email })}</p>
          ) : (
            <>
              <p data-testid="email-unverified">{t("verification.unverified", { email: user.email })}</p>
              {resent ? (
                <Notice>{t("verification.sent")}</Notice>
              ) : (
                <Button
                  type="button"
                  variant="secondary"
                  pending={resend.pending}
                  data-testid="resend-verification"
                  onClick={async () =>
                    setResent(Boolean(await resend.run({ email: user.email, callbackURL: "/verified" })))
                  }
                >
                  {t("verification.send")}
                </Button>
              )}
              <FormError error={resend.error} />
            </>
          )}
        </Card>
      )}
    </>
  );
}

/** Where the organization screens send a member its policy holds back: why they are here. */
function OrganizationRequiresTwoFactor() {
  const member = useActiveMember();
  const list = useListOrganizations();
  const t = useT();
  if (!member.data?.organizationPolicy?.unmet.includes("TWO_FACTOR_REQUIRED_BY_ORGANIZATION")) return null;
  const name = list.data?.find((org) => org.id === member.data?.organizationId)?.name ?? "";
  return (
    <Notice testId="security-org-requires-two-factor">
      {t("security.orgRequiresTwoFactor", { organization: name })}
    </Notice>
  );
}

export function SecurityPage() {
  const config = useAppConfig();
  const session = useSession();
  const accounts = useAccounts();
  const changeEmail = useSubmit(authClient.changeEmail);
  const changePassword = useSubmit(authClient.changePassword);
  const setPassword = useSubmit(authClient.requestPasswordReset);
  // Each card keeps its own notice, and a successful change starts its form afresh (fields cleared).
  const [notices, setNotices] = useState<{ email?: string; password?: string; setPassword?: string }>({});
  const [done, setDone] = useState({ email: 0, password: 0 });
  const t = useT();
  usePageTitle("security.title");
  const user = session.data?.user;
  if (!user || accounts.isPending) return <Loading />;
  // Without the list (older server) assume a password exists: the server answers either way.
  const hasPassword = accounts.data ? accounts.data.some((a) => a.providerId === "credential") : true;
  if (user.isAnonymous) return <SaveGuestAccountCard />;
  return (
    <>
      {config.changeEmail && (
        <Card title={t("security.email")} testId="change-email-card">
          {notices.email && <Notice testId="security-notice">{notices.email}</Notice>}
          <ChangeEmailForm
            key={done.email}
            current={user.email}
            pending={changeEmail.pending}
            error={changeEmail.error}
            onEdit={() => notices.email && setNotices({ ...notices, email: undefined })}
            onSubmit={async (values) => {
              if (!(await changeEmail.run({ ...values, callbackURL: "/verified" }))) return;
              setNotices({ ...notices, email: t("security.email.sent") });
              setDone({ ...done, email: done.email + 1 });
            }}
          />
        </Card>
      )}
      {hasPassword ? (
        <Card title={t("field.password")} testId="change-password-card">
          {notices.password && <Notice testId="security-notice">{notices.password}</Notice>}
          <ChangePasswordForm
            key={done.password}
            limits={config.emailAndPassword}
            pending={changePassword.pending}
            error={changePassword.error}
            onEdit={() => notices.password && setNotices({ ...notices, password: undefined })}
            onSubmit={async (values) => {
              if (!(await changePassword.run(values))) return;
              setNotices({ ...notices, password: t("security.password.changed") });
              setDone({ ...done, password: done.password + 1 });
            }}
          />
        </Card>
      ) : (
        <Card title={t("security.setPassword.title")} testId="set-password-card">
          {notices.setPassword && <Notice testId="security-notice">{notices.setPassword}</Notice>}
          <p>{t("security.setPassword.intro")}</p>
          <FormError error={setPassword.error} />
          <Button
            type="button"
            pending={setPassword.pending}
            data-testid="set-password-submit"
            onClick={async () => {
              if (await setPassword.run({ email: user.email, redirectTo: "/reset-password" }))
                setNotices({ ...notices, setPassword: t("security.setPassword.sent") });
            }}
          >
            {t("security.setPassword.submit")}
          </Button>
        </Card>
      )}
      {config.passkey && <PasskeysCard hasPassword={hasPassword} />}
      {config.twoFactor.enabled && !user.twoFactorEnabled && <OrganizationRequiresTwoFactor />}
      {config.twoFactor.enabled && <TwoFactorCard enabled={user.twoFactorEnabled} hasPassword={hasPassword} />}
      {config.securityActivity && <SecurityActivityCard />}
    </>
  );
}

export function SessionsPage() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ["sessions"], queryFn: () => unwrap(authClient.listSessions()) });
  const revoke = useSubmit(authClient.revokeSession);
  const revokeOthers = useSubmit(authClient.revokeOtherSessions);
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  const t = useT();
  usePageTitle("sessions.nav");
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["sessions"] });
  return (
    <Card title={t("sessions.title")} testId="sessions-card">
      {dialog}
      {notice && (
        <Notice key={notice} testId="sessions-notice" takeFocus>
          {notice}
        </Notice>
      )}
      {sessions.isPending ? (
        <Loading />
      ) : sessions.error ? (
        <FormError error={sessions.error} />
      ) : (
        <SessionsList
          sessions={sessions.data}
          pending={revoke.pending || revokeOthers.pending}
          onRevoke={async (s) => {
            setNotice(null);
            const device = t("sessions.device", {
              device: describeDevice(s.userAgent, t),
              ip: s.ipAddress || t("common.unknown"),
            });
            const yes = await confirm({
              title: t("sessions.confirm.title", { device }),
              body: t("sessions.confirm.body", { device }),
              confirmLabel: t("sessions.confirm.accept"),
            });
            if (!yes) return;
            if (await revoke.run({ token: s.token })) setNotice(t("sessions.revoked", { device }));
            await refresh();
          }}
          onRevokeOthers={async () => {
            setNotice(null);
            const others = sessions.data.filter((s) => !s.current).length;
            const yes = await confirm({
              title: t("sessions.others.title"),
              body: t("sessions.others.body", { count: others }),
              confirmLabel: t("sessions.others.accept"),
            });
            if (!yes) return;
            if (await revokeOthers.run()) setNotice(t("sessions.others.done"));
            await refresh();
          }}
        />
      )}
      <FormError error={revoke.error ?? revokeOthers.error} />
    </Card>
  );
}

export function LinkedAccountsPage() {
  const config = useAppConfig();
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const unlink = useSubmit(authClient.unlinkAccount);
  const link = useSubmit(authClient.linkSocial);
  const t = useT();
  usePageTitle("linked.title");
  return (
    <Card title={t("linked.title")} testId="linked-card">
      {accounts.isPending ? (
        <Loading />
      ) : accounts.error ? (
        <FormError error={accounts.error} />
      ) : (
        <LinkedAccountsList
          accounts={accounts.data}
          providers={config.socialProviders}
          pending={unlink.pending || link.pending}
          onUnlink={async (account) => {
            if (await unlink.run({ accountId: account.id }))
              await queryClient.invalidateQueries({ queryKey: ["accounts"] });
          }}
          onLink={(provider) =>
            void link.run({ provider, callbackURL: "/account/linked", errorCallbackURL: "/account/linked" })
          }
        />
      )}
      <FormError error={unlink.error ?? link.error} />
    </Card>
  );
}

export function DeleteAccountPage() {
  const config = useAppConfig();
  const accounts = useAccounts();
  const navigate = useNavigate();
  const remove = useSubmit(authClient.deleteUser);
  const [mailed, setMailed] = useState(false);
  const t = useT();
  usePageTitle("deleteAccount.title");
  if (!config.deleteUser.enabled) return <Notice>{t("deleteAccount.disabled")}</Notice>;
  if (accounts.isPending) return <Loading />;
  const hasPassword = accounts.data ? accounts.data.some((a) => a.providerId === "credential") : true;
  const byMail = config.deleteUser.sendDeleteAccountVerification;
  return (
    <Card title={t("deleteAccount.title")} testId="delete-account-card">
      {mailed ? (
        <Notice testId="delete-account-mailed">{t("deleteAccount.mailed")}</Notice>
      ) : (
        <DeleteAccountForm
          hasPassword={hasPassword}
          byMail={byMail}
          pending={remove.pending}
          error={remove.error}
          onSubmit={async (values) => {
            const data = await remove.run({ ...values, callbackURL: "/sign-in" });
            if (!data) return;
            if (data.message === "Verification email sent") setMailed(true);
            else navigate("/sign-in");
          }}
        />
      )}
    </Card>
  );
}
