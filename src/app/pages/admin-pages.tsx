import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, useMatch, useNavigate, useSearchParams } from "react-router";
import type { ListUsersQuery } from "../../contract/admin.js";
import type { Translate } from "../../i18n/index.js";
import { useSession } from "../../react/index.js";
import { type UserFilter, type UserSearch, UserSearchForm, type UserSort } from "../components/admin-forms.js";
import { AuditList, Pager, UsersList } from "../components/admin-lists.js";
import { CreateUserForm } from "../components/admin-user-forms.js";
import { AuditTrailView } from "../components/audit-trail-view.js";
import { SettingsLayout } from "../components/shell.js";
import { Card, FormError, Loading } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { usePageTitle, useT } from "../lib/i18n.js";
import { adminError, type HasCode, messageFor } from "../lib/messages.js";
import { useSubmit } from "../lib/use-submit.js";

/**
 * Which parts of the admin area the caller may open: users and the trail (`user:list`), OAuth
 * clients (`oauthClient:list`).
 */
interface AdminAreas {
  users: boolean;
  oauthClients: boolean;
}

export const adminNav = (t: Translate, areas: AdminAreas) => [
  ...(areas.users
    ? [
        { to: "/admin", label: t("admin.users.title") },
        { to: "/admin/audit", label: t("admin.audit.title") },
      ]
    : []),
  ...(areas.oauthClients ? [{ to: "/admin/oauth-clients", label: t("admin.oauthClients.title") }] : []),
];

const USERS_PAGE = 20;
const AUDIT_PAGE = 25;

/** Asks the server each area's permission (one request each: has-permission wants all it is asked). */
async function adminAreas(oauthProvider: boolean): Promise<AdminAreas> {
  const may = async (permissions: Record<string, string[]>) =>
    (await unwrap(authClient.admin.hasPermission({ permissions }))).success;
  const [users, oauthClients] = await Promise.all([
    may({ user: ["list"] }),
    oauthProvider ? may({ oauthClient: ["list"] }) : false,
  ]);
  return { users, oauthClients };
}

/**
 * The admin area: the server says which parts the caller may open (role, configured roles or
 * adminUserIds); anyone who may open none gets the refusal, and every admin route refuses them
 * anyway. A role with OAuth clients only lands there.
 */
export function AdminLayout() {
  const session = useSession();
  const config = useAppConfig();
  const t = useT();
  const atIndex = useMatch("/admin") !== null;
  const userId = session.data?.user.id;
  const access = useQuery({
    queryKey: ["admin", "access", userId, config.oauthProvider],
    queryFn: () => adminAreas(config.oauthProvider),
    enabled: Boolean(userId),
  });
  if (access.isPending) return <Loading />;
  const areas = access.data;
  if (!areas || !(areas.users || areas.oauthClients)) {
    const error = access.error as HasCode | null;
    const reason = error?.code === "NOT_FOUND" ? error : "ADMIN_ACCESS_REFUSED";
    return (
      <Card title={t("admin.title")} testId="admin-refused">
        <p role="alert">{messageFor(reason, t)}</p>
        <Link to="/">{t("admin.backHome")}</Link>
      </Card>
    );
  }
  if (atIndex && !areas.users) return <Navigate to="/admin/oauth-clients" replace />;
  return <SettingsLayout title={t("admin.title")} items={adminNav(t, areas)} />;
}

const FILTERS: Record<
  Exclude<UserFilter, "">,
  Pick<ListUsersQuery, "filterField" | "filterValue" | "filterOperator">
> = {
  admins: { filterField: "role", filterValue: "admin", filterOperator: "eq" },
  users: { filterField: "role", filterValue: "user", filterOperator: "eq" },
  banned: { filterField: "banned", filterValue: "true", filterOperator: "eq" },
  active: { filterField: "banned", filterValue: "true", filterOperator: "ne" },
};

function readSearch(params: URLSearchParams): UserSearch {
  const field = params.get("field");
  const filter = params.get("filter") ?? "";
  const sort = params.get("sort") ?? "";
  return {
    searchValue: params.get("q") ?? "",
    searchField: field === "name" ? "name" : "email",
    filter: (filter in FILTERS ? filter : "") as UserFilter,
    sort: (["createdAt:asc", "name:asc", "email:asc"].includes(sort) ? sort : "createdAt:desc") as UserSort,
  };
}

/** The page's search as list-users wants it. */
function toQuery(search: UserSearch, offset: number): ListUsersQuery {
  const [sortBy, sortDirection] = search.sort.split(":") as [ListUsersQuery["sortBy"], "asc" | "desc"];
  return {
    ...(search.searchValue ? { searchValue: search.searchValue, searchField: search.searchField } : {}),
    ...(search.filter ? FILTERS[search.filter] : {}),
    sortBy,
    sortDirection,
    limit: USERS_PAGE,
    offset,
  };
}

export function UsersPage() {
  usePageTitle("admin.users.title");
  return (
    <>
      <UsersCard />
      <CreateUserCard />
    </>
  );
}

/** After creating, the admin lands on the new user's page to set up the rest. */
function CreateUserCard() {
  const config = useAppConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useSubmit(authClient.admin.createUser);
  const t = useT();
  return (
    <Card title={t("admin.create.title")} testId="admin-create-card">
      <CreateUserForm
        limits={config.emailAndPassword}
        pending={create.pending}
        error={adminError(create.error)}
        onSubmit={async (values) => {
          const data = await create.run(values);
          if (!data) return;
          await queryClient.invalidateQueries({ queryKey: ["admin"] });
          navigate(`/admin/users/${data.user.id}`);
        }}
      />
    </Card>
  );
}

/** The search lives in the URL, so the back button from a user's page returns to the same list. */
function UsersCard() {
  const [params, setParams] = useSearchParams();
  const t = useT();
  const search = readSearch(params);
  const offset = Math.max(0, Number(params.get("offset")) || 0);
  const query = toQuery(search, offset);
  const users = useQuery({
    queryKey: ["admin", "users", query],
    queryFn: () => unwrap(authClient.admin.listUsers({ query })),
    placeholderData: keepPreviousData,
  });
  const go = (next: UserSearch, nextOffset: number) => {
    const entries: Record<string, string> = {};
    if (next.searchValue) entries.q = next.searchValue;
    if (next.searchField !== "email") entries.field = next.searchField;
    if (next.filter) entries.filter = next.filter;
    if (next.sort !== "createdAt:desc") entries.sort = next.sort;
    if (nextOffset) entries.offset = String(nextOffset);
    setParams(entries);
  };
  return (
    <Card title={t("admin.users.title")} testId="admin-users-card">
      <UserSearchForm key={params.toString()} initial={search} onSubmit={(next) => go(next, 0)} />
      {users.isPending ? (
        <Loading />
      ) : users.error ? (
        <FormError error={users.error} />
      ) : (
        <>
          <UsersList users={users.data.users} />
          <Pager
            label={t("admin.users.pages")}
            total={users.data.total}
            offset={offset}
            limit={USERS_PAGE}
            onChange={(next) => go(search, next)}
          />
        </>
      )}
    </Card>
  );
}

/** The admin actions log, and below it the whole security trail when the server keeps one. */
export function AuditLogPage() {
  const config = useAppConfig();
  const t = useT();
  usePageTitle("admin.audit.title");
  return (
    <>
      <AdminActionsCard />
      {config.audit.enabled && (
        <Card title={t("audit.trail.title")} testId="admin-trail-card">
          <AuditTrailView testId="admin-trail" source={{ area: "/admin", scope: {} }} />
        </Card>
      )}
    </>
  );
}

function AdminActionsCard() {
  const [params, setParams] = useSearchParams();
  const t = useT();
  const offset = Math.max(0, Number(params.get("offset")) || 0);
  const log = useQuery({
    queryKey: ["admin", "audit", offset],
    queryFn: () => unwrap(authClient.admin.listAuditLog({ query: { limit: AUDIT_PAGE, offset } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title={t("admin.audit.title")} testId="admin-audit-card">
      {log.isPending ? (
        <Loading />
      ) : log.error ? (
        <FormError error={log.error} />
      ) : (
        <>
          <AuditList entries={log.data.entries} />
          <Pager
            label={t("admin.audit.pages")}
            total={log.data.total}
            offset={offset}
            limit={AUDIT_PAGE}
            onChange={(next) => setParams(next ? { offset: String(next) } : {})}
          />
        </>
      )}
    </Card>
  );
}
