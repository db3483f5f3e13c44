export { sameOriginPath } from "../client/safe-redirect.js";
// Components (UserButton, OrganizationSwitcher) and the queries behind them; styles in components.css.
export { Avatar, initials } from "./avatar.js";
export { MenuButton, type MenuItem } from "./menu-button.js";
export type { Navigate } from "./navigate.js";
export { GoogleOneTap, type GoogleOneTapProps } from "./one-tap.js";
export {
  OrganizationSwitcher,
  type OrganizationSwitcherProps,
  organizationSwitcherLabels,
} from "./organization-switcher.js";
export {
  AuthProvider,
  type StoreResult,
  useActiveMember,
  useActiveOrganization,
  useAuthClient,
  useListOrganizations,
  useSession,
} from "./provider.js";
export { refreshUserInvitations, useIsAdmin, useUserInvitations } from "./queries.js";
export { UserButton, type UserButtonProps, userButtonLabels } from "./user-button.js";
