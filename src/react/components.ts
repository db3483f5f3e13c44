/** The components (UserButton, OrganizationSwitcher, their menu button) and the queries behind them; styles in components.css. */
export { Avatar, initials } from "./avatar.js";
export { MenuButton, type MenuItem } from "./menu-button.js";
export type { Navigate } from "./navigate.js";
export {
  OrganizationSwitcher,
  type OrganizationSwitcherProps,
  organizationSwitcherLabels,
} from "./organization-switcher.js";
export { refreshUserInvitations, useIsAdmin, useUserInvitations } from "./queries.js";
export { UserButton, type UserButtonProps, userButtonLabels } from "./user-button.js";
