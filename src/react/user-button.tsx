import { Avatar } from "./avatar.js";
import { MenuButton, type MenuItem } from "./menu-button.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { useAuthClient, useSession } from "./provider.js";
import { useIsAdmin } from "./queries.js";

/** Every word the component shows, in one place (a message catalogue can replace it). */
export const userButtonLabels = {
  menu: "Account menu",
  guest: "guest",
  account: "Account",
  admin: "Admin",
  signOut: "Sign out",
};

export interface UserButtonProps {
  /** Where "Account" goes. */
  accountHref?: string;
  /** Where "Admin" goes; shown only to users the server calls admins (role or adminUserIds). */
  adminHref?: string;
  /** Follows a link inside the app (e.g. react-router's navigate); defaults to a page load. */
  navigate?: Navigate;
  /** Where to go after signing out. */
  afterSignOutHref?: string;
  labels?: Partial<typeof userButtonLabels>;
}

/**
 * The signed-in user's avatar (picture or initials) opening a menu: account, admin, sign out.
 *
 * @example
 * <UserButton navigate={navigate} accountHref="/account" adminHref="/admin" afterSignOutHref="/sign-in" />
 */
export function UserButton({
  accountHref = "/account",
  adminHref = "/admin",
  navigate = browserNavigate,
  afterSignOutHref = "/sign-in",
  labels: overrides,
}: UserButtonProps) {
  const labels = { ...userButtonLabels, ...overrides };
  const client = useAuthClient();
  const session = useSession();
  const isAdmin = useIsAdmin();
  const user = session.data?.user;
  if (!user) return null;
  const name = user.name || user.email;
  const items: MenuItem[] = [
    {
      id: "account",
      label: labels.account,
      href: accountHref,
      onSelect: () => navigate(accountHref),
      testId: "user-menu-account",
    },
    ...(isAdmin
      ? [
          {
            id: "admin",
            label: labels.admin,
            href: adminHref,
            onSelect: () => navigate(adminHref),
            testId: "user-menu-admin",
          },
        ]
      : []),
    {
      id: "sign-out",
      label: labels.signOut,
      testId: "sign-out",
      onSelect: () => void client.signOut().then(() => navigate(afterSignOutHref)),
    },
  ];
  return (
    <MenuButton
      className="gh-user-button"
      testId="user-button"
      menuLabel={labels.menu}
      buttonContent={
        <>
          <Avatar name={name} image={user.image} />
          <span className="gh-visually-hidden">{labels.menu}: </span>
          <span className="gh-user-name" data-testid="shell-user">
            {user.name}
            {user.isAnonymous ? ` (${labels.guest})` : ""}
          </span>
        </>
      }
      items={items}
    />
  );
}
