import { useNavigate, useSearchParams } from "react-router";
import { DEFAULT_ROLE_TABLE, holdsCreatorRole } from "../../contract/roles.js";
import { isLocale, type MessageKey } from "../../i18n/index.js";
import {
  AcceptInvitation,
  type Appearance,
  CreateOrganization,
  type Labels,
  OrganizationList,
  OrganizationProfile,
  OrganizationSetup,
  SignIn,
  SignUp,
  UserProfile,
  useSession,
} from "../../react/index.js";

import { Loading } from "../components/ui.js";
import { useAppConfig } from "../lib/config.js";
import { usePageTitle } from "../lib/i18n.js";

/**
 * Development only (with the dev outbox): the exported screen components as a consumer would drop
 * them in, set from the query: `lang`, `theme` (light, dark, auto), `primary`, `radius`, `font`, and
 * `label.<catalogue key>` for words of one's own, `invitation` for AcceptInvitation's id, `profile`
 * (signed in) for UserProfile, switching its sections in place. The browser tests render them here.
 * `screen=organization` shows OrganizationProfile (sections switched in place, plus an owners-only
 * section named by `extra`) and OrganizationList instead. `screen=setup` shows OrganizationSetup, for
 * the setup link in the fragment (`#<token>`) or else for the signed-in owner's active organization.
 */
export function ComponentsPage() {
  const config = useAppConfig();
  const [params] = useSearchParams();
  const routerNavigate = useNavigate();
  const session = useSession();
  usePageTitle("components.title");
  if (!config.devOutbox) return <Loading />;
  const lang = params.get("lang");
  const theme = params.get("theme");
  const appearance: Appearance = {
    theme: theme === "light" || theme === "dark" ? theme : "auto",
    variables: {
      colorPrimary: params.get("primary") ?? undefined,
      borderRadius: params.get("radius") ?? undefined,
      fontFamily: params.get("font") ?? undefined,
    },
  };
  const labels: Labels = {};
  for (const [name, value] of params) {
    if (name.startsWith("label.")) labels[name.slice("label.".length) as MessageKey] = value;
  }
  const shared = {
    localization: isLocale(lang) ? lang : undefined,
    labels,
    appearance,
    navigate: (href: string) => routerNavigate(href),
  };
  const extra = params.get("extra");
  if (params.get("screen") === "setup") {
    const token = window.location.hash.slice(1);
    return (
      <main id="main" className="components-preview">
        <OrganizationSetup {...shared} token={token || undefined} />
      </main>
    );
  }
  if (params.get("screen") === "organization")
    return (
      <main id="main" className="components-preview">
        <OrganizationProfile
          {...shared}
          extraSections={
            extra
              ? [
                  {
                    id: "extra",
                    label: extra,
                    visible: (role) => holdsCreatorRole(DEFAULT_ROLE_TABLE, role),
                    render: ({ organization }) => <p data-testid="extra-section">{organization.slug}</p>,
                  },
                ]
              : []
          }
        />
        <OrganizationList {...shared} />
      </main>
    );
  const invitation = params.get("invitation");
  if (invitation) {
    return (
      <main id="main" className="components-preview">
        <AcceptInvitation {...shared} invitationId={invitation} />
      </main>
    );
  }
  if (params.has("profile") && session.data) {
    return (
      <main id="main" className="components-preview">
        <UserProfile {...shared} afterDeleteHref="/sign-in" />
      </main>
    );
  }
  return (
    <main id="main" className="components-preview">
      <SignIn {...shared} afterSignInHref="/" />
      <SignUp {...shared} afterSignUpHref="/" />
      <CreateOrganization {...shared} afterCreateHref="/organization" />
    </main>
  );
}
