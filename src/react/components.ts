/**
 * The components (UserButton, OrganizationSwitcher, their menu button; the screens SignIn,
 * SignUp and CreateOrganization) and the queries behind them; styles in components.css.
 */

export { AcceptInvitation, type AcceptInvitationProps } from "./accept-invitation.js";
export { Avatar, initials } from "./avatar.js";
export { CreateOrganization, type CreateOrganizationProps } from "./create-organization.js";
export type { Appearance, Labels, Localization } from "./localization.js";
export { MenuButton, type MenuItem } from "./menu-button.js";
export type { Navigate } from "./navigate.js";
export {
  OrganizationSwitcher,
  type OrganizationSwitcherProps,
  organizationSwitcherLabels,
} from "./organization-switcher.js";
export { refreshUserInvitations, useIsAdmin, useUserInvitations } from "./queries.js";
export { type ServerOptions, useServerOptions } from "./server-options.js";
export { SignIn, type SignInProps, type SignInView } from "./sign-in.js";
export { SignUp, type SignUpProps } from "./sign-up.js";
export { slugify } from "./slug.js";
export { UserButton, type UserButtonProps, userButtonLabels } from "./user-button.js";
export { UserProfile, type UserProfileProps, type UserProfileSection, userProfileSections } from "./user-profile.js";
