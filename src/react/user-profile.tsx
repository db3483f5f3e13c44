import { type MouseEvent, type ReactNode, useId, useMemo, useState } from "react";
import type { LinkedAccount } from "../contract/api-models.js";
import { DeleteSection, LinkedSection } from "./account-sections.js";
import { ConnectedApplications } from "./connected-applications.js";
import { FrameProvider, Loading } from "./form-parts.js";
import {
  type Appearance,
  appearanceStyle,
  componentTranslator,
  type Labels,
  type Localization,
} from "./localization.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { useLoad } from "./profile-parts.js";
import { ProfileSection } from "./profile-section.js";
import { useAuthClient, useSession } from "./provider.js";
import { SecuritySection } from "./security-section.js";
import { useServerOptions } from "./server-options.js";
import { SessionsSection } from "./sessions-section.js";

export const userProfileSections = ["profile", "security", "sessions", "linked", "applications", "delete"] as const;
export type UserProfileSection = (typeof userProfileSections)[number];

export interface UserProfileProps {
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
  /** The section to show (default `profile`). With `sectionHref` the application's routes choose it. */
  section?: UserProfileSection;
  /**
   * Where the menu's entries link to (one route per section, through `navigate`). Without it the
   * menu switches sections in place.
   */
  sectionHref?: (section: UserProfileSection) => string;
  /** Where to go once the account is deleted (default `/`); the app can say so there. */
  afterDeleteHref?: string;
  /** Called once deleted instead of going to afterDeleteHref. */
  onDeleted?: () => void;
  /** Where the verification and email-change links land (default `/verified`). */
  verifiedHref?: string;
  /** Where the "set a password" mail's link lands (default `/reset-password`). */
  resetPasswordHref?: string;
  /** Draws the two-factor setup's QR code from its otpauth URI (the package has no QR encoder). */
  qrCode?: (uri: string) => ReactNode;
  /** Shown to a guest (anonymous) account instead of the security section: how to keep the account. */
  guest?: ReactNode;
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

const sectionTitles = {
  profile: "profile.title",
  security: "security.title",
  sessions: "sessions.nav",
  linked: "linked.title",
  applications: "connectedApps.title",
  delete: "deleteAccount.title",
} as const;

/**
 * The signed-in user's account: profile (name, picture, email verification), security (email,
 * password, passkeys, two-factor with its backup codes, recent activity), sessions, linked
 * accounts, connected applications (when the server is an OAuth provider) and deletion, beside a menu of fixed width. Sections follow the server's options.
 *
 * @example
 * <UserProfile
 *   navigate={navigate}
 *   section={section}
 *   sectionHref={(target) => `/account/${target}`}
 *   afterDeleteHref="/goodbye"
 * />
 */
export function UserProfile({
  localization = "en",
  labels,
  appearance,
  navigate = browserNavigate,
  section: chosen,
  sectionHref,
  afterDeleteHref = "/",
  onDeleted,
  verifiedHref = "/verified",
  resetPasswordHref = "/reset-password",
  qrCode,
  guest,
  headingLevel = 1,
}: UserProfileProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const session = useSession();
  const options = useServerOptions();
  const [own, setOwn] = useState<UserProfileSection>(chosen ?? "profile");
  const section = sectionHref ? (chosen ?? "profile") : own;
  const user = session.data?.user;
  const needsAccounts = Boolean(
    user && !user.isAnonymous && section !== "profile" && section !== "sessions" && section !== "applications",
  );
  const accounts = useLoad(() => client.listAccounts(), needsAccounts);
  const titleId = useId();
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const list = accounts.data as LinkedAccount[] | null;
  // Without the list (an older server) assume a password exists: the server answers either way.
  const hasPassword = list ? list.some((a) => a.providerId === "credential") : true;

  const follow = (target: UserProfileSection) => (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    if (sectionHref) navigate(sectionHref(target));
    else setOwn(target);
  };
  // Connected applications only where the server is an OAuth provider.
  const shownSections = userProfileSections.filter((target) => target !== "applications" || options?.oauthProvider);
  const hrefOf = (target: UserProfileSection) => sectionHref?.(target) ?? `#${target}`;

  let content: ReactNode;
  if (!user || !options) content = <Loading />;
  else if (section === "profile")
    content = (
      <>
        <ProfileSection user={user} verifiedHref={verifiedHref} />
        {user.isAnonymous && guest}
      </>
    );
  else if (user.isAnonymous && section !== "sessions") content = guest ?? null;
  else if (section === "sessions") content = <SessionsSection />;
  else if (section === "applications") content = <ConnectedApplications />;
  else if (accounts.pending) content = <Loading />;
  else if (section === "security")
    content = (
      <SecuritySection
        user={user}
        options={options}
        hasPassword={hasPassword}
        verifiedHref={verifiedHref}
        resetPasswordHref={resetPasswordHref}
        qrCode={qrCode}
      />
    );
  else if (section === "linked")
    content = (
      <LinkedSection
        accounts={{ data: list, error: accounts.error, pending: accounts.pending, reload: accounts.reload }}
        providers={options.socialProviders}
        returnHref={sectionHref?.("linked") ?? (typeof window === "undefined" ? "/" : window.location.pathname)}
      />
    );
  else
    content = (
      <DeleteSection
        options={options.deleteUser}
        hasPassword={hasPassword}
        loading={accounts.pending}
        afterDeleteHref={afterDeleteHref}
        onDeleted={() => (onDeleted ? onDeleted() : navigate(afterDeleteHref))}
      />
    );

  return (
    <FrameProvider value={{ t, navigate, locale: localization }}>
      <section
        className="gh-root gh-profile"
        style={appearanceStyle(appearance)}
        data-theme={appearance?.theme && appearance.theme !== "auto" ? appearance.theme : undefined}
        aria-labelledby={titleId}
        data-testid="gh-user-profile"
        data-section={section}
      >
        <Heading id={titleId} className="gh-title">
          {t("profile.account")}
        </Heading>
        <nav className="gh-profile-nav" aria-label={t("profile.account")}>
          <ul>
            {shownSections.map((target) => (
              <li key={target}>
                <a
                  href={hrefOf(target)}
                  aria-current={target === section ? "page" : undefined}
                  data-testid={`profile-nav-${target}`}
                  onClick={follow(target)}
                >
                  {t(sectionTitles[target])}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="gh-profile-page">{content}</div>
      </section>
    </FrameProvider>
  );
}
