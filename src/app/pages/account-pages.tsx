import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useSession } from "../../react/index.js";
import { ChangeEmailForm, ChangePasswordForm, DeleteAccountForm, ProfileForm } from "../components/account-forms.js";
import { describeDevice, LinkedAccountsList, SessionsList } from "../components/account-lists.js";
import { useConfirm } from "../components/confirm-dialog.js";
import { PasskeysCard } from "../components/passkeys-card.js";
import { ProfilePictureCard } from "../components/profile-picture.js";
import { SaveGuestAccountCard } from "../components/save-guest-card.js";
import { TwoFactorCard } from "../components/two-factor-card.js";
import { Button, Card, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useSubmit } from "../lib/use-submit.js";

export const accountNav = [
  { to: "/account", label: "Profile" },
  { to: "/account/security", label: "Email and password" },
  { to: "/account/sessions", label: "Sessions" },
  { to: "/account/linked", label: "Linked accounts" },
  { to: "/account/delete", label: "Delete account" },
];

function useAccounts() {
  return useQuery({ queryKey: ["accounts"], queryFn: () => unwrap(authClient.listAccounts()) });
}

export function ProfilePage() {
  const session = useSession();
  const update = useSubmit(authClient.updateUser);
  const resend = useSubmit(authClient.sendVerificationEmail);
  const [saved, setSaved] = useState(false);
  const [resent, setResent] = useState(false);
  const user = session.data?.user;
  if (!user) return <Loading />;
  return (
    <>
      <ProfilePictureCard user={user} />
      <Card title="Profile" testId="profile-card">
        {saved && <Notice testId="profile-saved">Profile saved.</Notice>}
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
        <Card title="Email verification">
          {user.emailVerified ? (
            <p data-testid="email-verified">{user.email} is verified.</p>
          ) : (
            <>
              <p data-testid="email-unverified">{user.email} is not verified yet.</p>
              {resent ? (
                <Notice>Verification link sent.</Notice>
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
                  Send verification link
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
  const user = session.data?.user;
  if (!user || accounts.isPending) return <Loading />;
  // Without the list (older server) assume a password exists: the server answers either way.
  const hasPassword = accounts.data ? accounts.data.some((a) => a.providerId === "credential") : true;
  if (user.isAnonymous) return <SaveGuestAccountCard />;
  return (
    <>
      {config.changeEmail && (
        <Card title="Email address" testId="change-email-card">
          {notices.email && <Notice testId="security-notice">{notices.email}</Notice>}
          <ChangeEmailForm
            key={done.email}
            current={user.email}
            pending={changeEmail.pending}
            error={changeEmail.error}
            onEdit={() => notices.email && setNotices({ ...notices, email: undefined })}
            onSubmit={async (values) => {
              if (!(await changeEmail.run({ ...values, callbackURL: "/verified" }))) return;
              setNotices({ ...notices, email: "Check your inbox: we have sent a link to confirm the change." });
              setDone({ ...done, email: done.email + 1 });
            }}
          />
        </Card>
      )}
      {hasPassword ? (
        <Card title="Password" testId="change-password-card">
          {notices.password && <Notice testId="security-notice">{notices.password}</Notice>}
          <ChangePasswordForm
            key={done.password}
            limits={config.emailAndPassword}
            pending={changePassword.pending}
            error={changePassword.error}
            onEdit={() => notices.password && setNotices({ ...notices, password: undefined })}
            onSubmit={async (values) => {
              if (!(await changePassword.run(values))) return;
              setNotices({ ...notices, password: "Password changed." });
              setDone({ ...done, password: done.password + 1 });
            }}
          />
        </Card>
      ) : (
        <Card title="Set a password" testId="set-password-card">
          {notices.setPassword && <Notice testId="security-notice">{notices.setPassword}</Notice>}
          <p>
            You sign in with a linked account. To also sign in with your email, set a password through a link we mail
            you.
          </p>
          <FormError error={setPassword.error} />
          <Button
            type="button"
            pending={setPassword.pending}
            data-testid="set-password-submit"
            onClick={async () => {
              if (await setPassword.run({ email: user.email, redirectTo: "/reset-password" }))
                setNotices({ ...notices, setPassword: "Check your inbox for the link to set your password." });
            }}
          >
            Email me a link
          </Button>
        </Card>
      )}
      {config.passkey && <PasskeysCard />}
      {config.twoFactor.enabled && <TwoFactorCard enabled={user.twoFactorEnabled} hasPassword={hasPassword} />}
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
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["sessions"] });
  return (
    <Card title="Active sessions" testId="sessions-card">
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
            const device = `${describeDevice(s.userAgent)} (IP ${s.ipAddress || "unknown"})`;
            const yes = await confirm({
              title: `Sign out ${device}?`,
              body: `The session on ${device} ends at once; signing in there again needs the password or another sign-in method.`,
              confirmLabel: "Sign out session",
            });
            if (!yes) return;
            if (await revoke.run({ token: s.token })) setNotice(`${device} is signed out.`);
            await refresh();
          }}
          onRevokeOthers={async () => {
            setNotice(null);
            const others = sessions.data.filter((s) => !s.current).length;
            const yes = await confirm({
              title: "Sign out all other sessions?",
              body: `${others} other session(s) end at once; this device stays signed in.`,
              confirmLabel: "Sign out others",
            });
            if (!yes) return;
            if (await revokeOthers.run()) setNotice("Every other session is signed out.");
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
  return (
    <Card title="Linked accounts" testId="linked-card">
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
  if (!config.deleteUser.enabled) return <Notice>Deleting accounts is switched off on this server.</Notice>;
  if (accounts.isPending) return <Loading />;
  const hasPassword = accounts.data ? accounts.data.some((a) => a.providerId === "credential") : true;
  const byMail = config.deleteUser.sendDeleteAccountVerification;
  return (
    <Card title="Delete account" testId="delete-account-card">
      {mailed ? (
        <Notice testId="delete-account-mailed">Check your inbox: the link in it deletes your account.</Notice>
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
