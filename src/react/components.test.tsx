import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createNodeAuthClient } from "../client/index.js";
import { FrameProvider } from "./form-parts.js";
import * as entry from "./index.js";
import {
  AcceptInvitation,
  ApiKeys,
  AuthProvider,
  ConnectedApplications,
  CreateOrganization,
  DeviceAuthorization,
  OAuthClients,
  OAuthConsent,
  OrganizationList,
  OrganizationProfile,
  SignIn,
  SignUp,
  UserProfile,
} from "./index.js";
import { appearanceStyle, componentTranslator } from "./localization.js";
import { browserNavigate } from "./navigate.js";
import { PasskeysPanel } from "./passkeys-panel.js";
import { TwoFactorPanel } from "./two-factor-panel.js";

/** The React entry (`gatehouse-auth/react`): its screen components, their words and their appearance. */
describe("the React entry", () => {
  it("exports the screen components beside UserButton and OrganizationSwitcher", () => {
    const functions = Object.entries(entry).flatMap(([name, value]) => (typeof value === "function" ? [name] : []));
    expect(functions).toEqual(
      expect.arrayContaining([
        "SignIn",
        "SignUp",
        "CreateOrganization",
        "OrganizationProfile",
        "OrganizationList",
        "UserButton",
        "OrganizationSwitcher",
        "UserProfile",
        "AcceptInvitation",
        "useServerOptions",
      ]),
    );
  });

  it("renders SignIn and SignUp in German with an appearance, before the server's options arrive", () => {
    const client = createNodeAuthClient({ baseURL: "http://127.0.0.1:9" });
    const shared = {
      localization: "de",
      labels: { "common.loading": "Einen Moment …" },
      appearance: { theme: "dark", variables: { colorPrimary: "#7a1f5c", borderRadius: "14px" } },
    } as const;
    const render = (screen: ReactNode) => renderToString(<AuthProvider client={client}>{screen}</AuthProvider>);
    const signIn = render(<SignIn {...shared} />);
    expect(signIn).toContain(">Anmelden</h1>");
    expect(signIn).toContain("Einen Moment …");
    expect(signIn).toContain("--gh-accent:#7a1f5c;--gh-radius:14px;color-scheme:dark");
    expect(signIn).toContain('data-theme="dark"');
    expect(render(<SignUp {...shared} />)).toContain(">Konto erstellen</h1>");
    expect(render(<CreateOrganization {...shared} headingLevel={2} />)).toMatch(
      /<h2[^>]*>Organisation erstellen<\/h2>/,
    );
    // UserProfile: its heading and fixed menu in German (the sections wait for the session).
    const profile = render(<UserProfile {...shared} section="security" sectionHref={(s) => `/konto/${s}`} />);
    expect(profile).toMatch(/<h1[^>]*>Konto<\/h1>/);
    expect(profile).toContain('href="/konto/security" aria-current="page"');
    expect(profile).toContain(">Sicherheit</a>");
    expect(profile).toContain("Einen Moment …");
    expect(render(<AcceptInvitation {...shared} invitationId="abc" />)).toMatch(/<h1[^>]*>Einladung<\/h1>/);
  });

  it("renders OrganizationProfile and OrganizationList in German, loading, with an appearance", () => {
    const client = createNodeAuthClient({ baseURL: "http://127.0.0.1:9" });
    const render = (screen: ReactNode) => renderToString(<AuthProvider client={client}>{screen}</AuthProvider>);
    const appearance = { variables: { colorPrimary: "#7a1f5c" } };
    const profile = render(
      <OrganizationProfile localization="de" appearance={appearance} navigation={false} section="members" />,
    );
    expect(profile).toMatch(/<h1[^>]*>Mitglieder<\/h1>/);
    expect(profile).toContain("Wird geladen");
    expect(profile).toContain("--gh-accent:#7a1f5c");
    const list = render(<OrganizationList localization="de" headingLevel={2} />);
    expect(list).toMatch(/<h2[^>]*>Ihre Organisationen<\/h2>/);
    expect(list).toContain('href="/organizations/new"');
  });

  it("says to verify the address before adding a factor, with the link to send again, in German", () => {
    const client = createNodeAuthClient({ baseURL: "http://127.0.0.1:9" });
    const frame = { t: componentTranslator("de"), navigate: browserNavigate, locale: "de" } as const;
    const render = (screen: ReactNode) =>
      renderToString(
        <AuthProvider client={client}>
          <FrameProvider value={frame}>{screen}</FrameProvider>
        </AuthProvider>,
      );
    const unverified = { email: "pia@example.com", emailVerified: false, verifiedHref: "/verified" };
    const twoFactor = render(<TwoFactorPanel enabled={false} hasPassword {...unverified} />);
    expect(twoFactor).toContain(
      "Bestätigen Sie Ihre E-Mail-Adresse, um die Zwei-Faktor-Authentifizierung einzuschalten: " +
        "Folgen Sie dem Bestätigungslink an pia@example.com",
    );
    expect(twoFactor).toContain('data-testid="verify-to-enrol-resend"');
    expect(twoFactor).not.toContain('data-testid="two-factor-enable"');
    const passkeys = render(<PasskeysPanel hasPassword {...unverified} />);
    expect(passkeys).toContain("um einen Passkey hinzuzufügen");
    expect(passkeys).not.toContain('data-testid="passkey-add"');
    // Verified: the buttons, no notice.
    const ready = render(<TwoFactorPanel enabled={false} hasPassword {...unverified} emailVerified />);
    expect(ready).toContain('data-testid="two-factor-enable"');
    expect(ready).not.toContain('data-testid="verify-to-enrol"');
  });

  it("renders ApiKeys in German: its title, its loading state and the form that makes a key", () => {
    const client = createNodeAuthClient({ baseURL: "http://127.0.0.1:9" });
    const frame = { t: componentTranslator("de"), navigate: browserNavigate, locale: "de" } as const;
    const html = renderToString(
      <AuthProvider client={client}>
        <FrameProvider value={frame}>
          <ApiKeys organizationId="org-1" />
        </FrameProvider>
      </AuthProvider>,
    );
    expect(html).toContain("API-Schlüssel");
    expect(html).toContain('data-testid="api-key-name"');
    expect(html).toContain("Schlüssel erstellen");
    expect(typeof entry.ApiKeys).toBe("function");
  });

  it("renders the OAuth provider's screens in German: consent, device code, connected apps, clients", () => {
    const client = createNodeAuthClient({ baseURL: "http://127.0.0.1:9" });
    const html = (node: ReactNode) => renderToString(<AuthProvider client={client}>{node}</AuthProvider>);
    // Without a signed request the consent page says so instead of offering Allow.
    const consent = html(<OAuthConsent localization="de" oauthQuery="" />);
    expect(consent).toContain("Zugriff erlauben");
    expect(consent).toContain("Diese Anfrage ist unvollständig oder abgelaufen.");
    expect(consent).not.toContain('data-testid="oauth-consent-allow"');
    const device = html(<DeviceAuthorization localization="de" userCode="bcdf-ghjk" />);
    expect(device).toContain("Gerät verbinden");
    expect(device).toContain('value="bcdf-ghjk"');
    expect(html(<ConnectedApplications localization="de" />)).toContain("Verbundene Anwendungen");
    const clients = html(<OAuthClients organizationId="org-1" localization="de" />);
    expect(clients).toContain("OAuth-Anwendungen");
    expect(clients).toContain('data-testid="oauth-client-redirect-uris"');
  });

  it("keeps only the signed parameters of a login page's query", () => {
    const query =
      "client_id=c&scope=openid&ba_iat=1&ba_param=ba_iat&ba_param=ba_param&ba_param=client_id&ba_param=scope&sig=s";
    expect(entry.signedOAuthQuery(`?${query}&redirectTo=%2Fx`)).toBe(query);
    expect(entry.signedOAuthQuery("?client_id=c&redirectTo=%2Fx")).toBeNull();
  });

  it("fills a replacement's placeholders like the catalogue's, and leaves other keys to it", () => {
    const t = componentTranslator("en", { "signIn.signedInAs": "Hello {email}" });
    expect(t("signIn.signedInAs", { email: "a@example.com" })).toBe("Hello a@example.com");
    expect(t("signIn.submit")).toBe("Sign in");
    expect(appearanceStyle({ theme: "auto", variables: { fontFamily: "Georgia" } })).toEqual({
      "--gh-font": "Georgia",
    });
  });
});
