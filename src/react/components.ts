/**
 * The components (UserButton, OrganizationSwitcher, their menu button; the screens SignIn,
 * SignUp, CreateOrganization, OrganizationProfile and OrganizationList; the OAuth provider's OAuthConsent,
 * DeviceAuthorization, ConnectedApplications and OAuthClients) and the queries behind them; styles in components.css.
 */

export { AcceptInvitation, type AcceptInvitationProps } from "./accept-invitation.js";
export { ApiKeys, type ApiKeysProps } from "./api-keys.js";
export { Avatar, initials } from "./avatar.js";
export { ConnectedApplications, type ConnectedApplicationsProps } from "./connected-applications.js";
export { CreateOrganization, type CreateOrganizationProps } from "./create-organization.js";
export { DeviceAuthorization, type DeviceAuthorizationProps } from "./device-authorization.js";
export type { Appearance, Labels, Localization } from "./localization.js";
export { MenuButton, type MenuItem } from "./menu-button.js";
export type { Navigate } from "./navigate.js";
export { OAuthClients, type OAuthClientsProps } from "./oauth-clients.js";
export { OAuthConsent, type OAuthConsentProps } from "./oauth-consent.js";
export { pageOAuthQuery, signedOAuthQuery } from "./oauth-query.js";
export { OrganizationList, type OrganizationListProps } from "./organization-list.js";
export {
  OrganizationProfile,
  type OrganizationProfileProps,
  type OrganizationSection,
  type OrganizationSectionContext,
  type OrganizationSectionId,
} from "./organization-profile.js";
export { can, roleLabel } from "./organization-roles.js";
export { OrganizationSetup, type OrganizationSetupProps } from "./organization-setup.js";
export {
  OrganizationSwitcher,
  type OrganizationSwitcherProps,
  organizationSwitcherLabels,
} from "./organization-switcher.js";
export { ActiveTeamSelect } from "./organization-teams.js";
export { refreshUserInvitations, useIsAdmin, useUserInvitations } from "./queries.js";
export { type ServerOptions, useServerOptions } from "./server-options.js";
export { SignIn, type SignInProps, type SignInView } from "./sign-in.js";
export { SignUp, type SignUpProps } from "./sign-up.js";
export { slugify } from "./slug.js";
export { UserButton, type UserButtonProps, userButtonLabels } from "./user-button.js";
export { UserProfile, type UserProfileProps, type UserProfileSection, userProfileSections } from "./user-profile.js";
