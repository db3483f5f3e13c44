import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useSession } from "../../react/index.js";
import { BanUserForm, DeleteUserForm, RoleForm, SetUserPasswordForm } from "../components/admin-forms.js";
import { MembershipsList, UserAccountsList, UserSessionsList, UserStatus } from "../components/admin-lists.js";
import { AdminProfileForm } from "../components/admin-user-forms.js";
import { Button, Card, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useFormatDate, usePageTitle, useT } from "../lib/i18n.js";
import { adminError, type HasCode } from "../lib/messages.js";
import { useSubmit } from "../lib/use-submit.js";

/** One user for an admin: profile and status, what can be done to them, and what they have. */
export function AdminUserPage() {
  const { id = "" } = useParams();
  const session = useSession();
  const config = useAppConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useQuery({
    queryKey: ["admin", "user", id],
    queryFn: () => unwrap(authClient.admin.getUser({ query: { id } })),
  });
  const sessions = useQuery({
    queryKey: ["admin", "user-sessions", id],
    queryFn: async () => (await unwrap(authClient.admin.listUserSessions({ userId: id }))).sessions,
  });
  const accounts = useQuery({
    queryKey: ["admin", "user-accounts", id],
    queryFn: async () => (await unwrap(authClient.admin.listUserAccounts({ query: { userId: id } }))).accounts,
  });
  const memberships = useQuery({
    queryKey: ["admin", "user-memberships", id],
    queryFn: async () => (await unwrap(authClient.admin.listUserMemberships({ query: { userId: id } }))).memberships,
  });
  const update = useSubmit(authClient.admin.updateUser);
  const setRole = useSubmit(authClient.admin.setRole);
  const ban = useSubmit(authClient.admin.banUser);
  const unban = useSubmit(authClient.admin.unbanUser);
  const setPassword = useSubmit(authClient.admin.setUserPassword);
  const revoke = useSubmit(authClient.admin.revokeUserSession);
  const revokeAll = useSubmit(authClient.admin.revokeUserSessions);
  const impersonate = useSubmit(authClient.admin.impersonateUser);
  const remove = useSubmit(authClient.admin.removeUser);
  const [notice, setNotice] = useState<string | null>(null);
  const t = useT();
  const formatDate = useFormatDate();
  usePageTitle("admin.user.title");

  /** Runs an action; on success says so and reads the admin screens again. */
  const act = async (done: unknown, message: string) => {
    if (!done) return false;
    setNotice(message);
    await queryClient.invalidateQueries({ queryKey: ["admin"] });
    return true;
  };

  if (user.isPending) return <Loading />;
  if (user.error) {
    return (
      <Card title={t("admin.user.title")} testId="admin-user-missing">
        <FormError error={(user.error as HasCode).code === "USER_NOT_FOUND" ? "ADMIN_USER_NOT_FOUND" : user.error} />
        <Link to="/admin">{t("admin.user.back")}</Link>
      </Card>
    );
  }
  const target = user.data;
  const self = target.id === session.data?.user.id;
  return (
    <>
      <p>
        <Link to="/admin">{t("admin.user.all")}</Link>
      </p>
      {notice && <Notice testId="admin-notice">{notice}</Notice>}
      <Card title={target.name || target.email} testId="admin-user-profile">
        <UserStatus user={target} />
        <dl className="details">
          <dt>{t("field.email")}</dt>
          <dd data-testid="admin-user-email">
            {target.email} {target.emailVerified ? t("admin.user.verified") : t("admin.user.notVerified")}
          </dd>
          <dt>{t("admin.user.joined")}</dt>
          <dd>{formatDate(target.createdAt)}</dd>
          <dt>{t("admin.user.id")}</dt>
          <dd>{target.id}</dd>
          {target.banned && (
            <>
              <dt>{t("admin.user.banReason")}</dt>
              <dd data-testid="admin-user-ban-reason">{target.banReason ?? "—"}</dd>
            </>
          )}
        </dl>
        <RoleForm
          key={target.role}
          current={target.role}
          pending={setRole.pending}
          error={setRole.error}
          onSubmit={async ({ role }) =>
            act(await setRole.run({ userId: target.id, role }), t("admin.user.roleSet", { role }))
          }
        />
      </Card>
      <Card title={t("admin.edit.title")} testId="admin-user-edit">
        <AdminProfileForm
          key={`${target.name}|${target.email}|${target.image}|${target.emailVerified}`}
          user={target}
          pending={update.pending}
          error={adminError(update.error)}
          onSubmit={async (data) => act(await update.run({ userId: target.id, data }), t("profile.saved"))}
        />
      </Card>
      {!self && (
        <Card title={t("admin.user.access")} testId="admin-user-access">
          {target.banned ? (
            <>
              <FormError error={unban.error} />
              <Button
                type="button"
                pending={unban.pending}
                data-testid="admin-unban"
                onClick={async () => act(await unban.run({ userId: target.id }), t("admin.user.unbanned"))}
              >
                {t("admin.user.unban")}
              </Button>
            </>
          ) : (
            <BanUserForm
              pending={ban.pending}
              error={ban.error}
              onSubmit={async (values) => act(await ban.run({ userId: target.id, ...values }), t("admin.user.banned"))}
            />
          )}
          <h3>{t("admin.user.impersonate.title")}</h3>
          <p className="hint">{t("admin.user.impersonate.intro")}</p>
          <FormError error={impersonate.error} />
          <Button
            type="button"
            variant="secondary"
            pending={impersonate.pending}
            disabled={target.banned}
            data-testid="admin-impersonate"
            onClick={async () => {
              const data = await impersonate.run({ userId: target.id });
              if (!data) return;
              authClient.$store.session.setData(data);
              navigate("/");
              await queryClient.resetQueries();
            }}
          >
            {t("admin.user.impersonate.submit", { name: target.name || target.email })}
          </Button>
        </Card>
      )}
      <Card title={t("field.password")} testId="admin-user-password">
        <SetUserPasswordForm
          limits={config.emailAndPassword}
          pending={setPassword.pending}
          error={setPassword.error}
          onSubmit={async (values) =>
            act(await setPassword.run({ userId: target.id, ...values }), t("admin.user.passwordSet"))
          }
        />
      </Card>
      <Card title={t("sessions.nav")} testId="admin-user-sessions">
        {sessions.isPending ? (
          <Loading />
        ) : sessions.error ? (
          <FormError error={sessions.error} />
        ) : (
          <UserSessionsList
            sessions={sessions.data}
            pending={revoke.pending || revokeAll.pending}
            onRevoke={async (s) => act(await revoke.run({ sessionToken: s.token }), t("admin.user.sessionRevoked"))}
            onRevokeAll={async () => act(await revokeAll.run({ userId: target.id }), t("admin.user.sessionsRevoked"))}
          />
        )}
        <FormError error={revoke.error ?? revokeAll.error} />
      </Card>
      <Card title={t("linked.title")} testId="admin-user-accounts">
        {accounts.error ? <FormError error={accounts.error} /> : <UserAccountsList accounts={accounts.data ?? []} />}
      </Card>
      <Card title={t("switcher.menu")} testId="admin-user-memberships">
        {memberships.error ? (
          <FormError error={memberships.error} />
        ) : (
          <MembershipsList memberships={memberships.data ?? []} />
        )}
      </Card>
      {!self && (
        <Card title={t("admin.delete.submit")} testId="admin-user-delete">
          <DeleteUserForm
            name={target.name || target.email}
            pending={remove.pending}
            error={remove.error}
            onSubmit={async () => {
              if (!(await remove.run({ userId: target.id }))) return;
              navigate("/admin");
              await queryClient.invalidateQueries({ queryKey: ["admin"] });
            }}
          />
        </Card>
      )}
    </>
  );
}
