import { useMemo, useState } from "react";
import type { OAuthPublicClient } from "../client/types.js";
import { Actions, Button, ComponentRoot, ErrorMessage, Loading, useFrame } from "./form-parts.js";
import { type Appearance, componentTranslator, type Labels, type Localization } from "./localization.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { pageOAuthQuery } from "./oauth-query.js";
import { type ScopeChoice, ScopeList } from "./oauth-scopes.js";
import { useLoad } from "./profile-parts.js";
import { useAuthClient, useSession } from "./provider.js";
import { useCall } from "./use-call.js";

export interface OAuthConsentProps {
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
  /** The signed authorization request (default: the page's own query, as the provider sent it). */
  oauthQuery?: string;
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

/** The client's name, logo and home page, as its registration gives them. */
function ClientHeader({ client }: { client: OAuthPublicClient }) {
  const { t } = useFrame();
  return (
    <div className="gh-oauth-client" data-testid="oauth-client">
      {client.logo_uri && (
        <img
          src={client.logo_uri}
          alt={t("oauth.consent.logoAlt", { client: client.client_name })}
          width={48}
          height={48}
        />
      )}
      <strong data-testid="oauth-client-name">{client.client_name}</strong>
      {client.client_uri && (
        <a href={client.client_uri} className="gh-link" target="_blank" rel="noopener noreferrer">
          {t("oauth.consent.site", { client: client.client_name })}
        </a>
      )}
    </div>
  );
}

/**
 * The consent page (the provider's `consentPage`): which application asks, for what, in words; Allow
 * or Deny posts the answer with the signed request, and the browser follows the answer back to the
 * application (with a code, or access_denied). Needs a signed-in user.
 *
 * @example
 * // at the route the provider's consentPage names (default /oauth/consent)
 * <OAuthConsent localization="de" />
 */
export function OAuthConsent({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  oauthQuery,
  headingLevel = 1,
}: OAuthConsentProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const session = useSession();
  const query = useMemo(() => oauthQuery ?? pageOAuthQuery(), [oauthQuery]);
  const request = useMemo(() => new URLSearchParams(query ?? ""), [query]);
  const clientId = request.get("client_id");
  const found = useLoad(() => client.oauth2.publicClient({ query: { client_id: clientId ?? "" } }), Boolean(clientId));
  const answer = useCall(client.oauth2.consent);
  // Once answered the browser is on its way to the application: the buttons stay off meanwhile.
  const [leaving, setLeaving] = useState(false);
  const scopes = useMemo(() => [...new Set((request.get("scope") ?? "").split(" ").filter(Boolean))], [request]);
  // The user may keep fewer scopes than asked; openid, when asked, is the sign-in itself and stays.
  const required = useMemo(() => new Set(scopes.filter((scope) => scope === "openid")), [scopes]);
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  const chosen = useMemo(() => new Set(scopes.filter((scope) => !dropped.has(scope))), [scopes, dropped]);
  const choice: ScopeChoice = {
    chosen,
    required,
    onChange: (scope, kept) =>
      setDropped((before) => {
        const next = new Set(before);
        if (kept) next.delete(scope);
        else next.add(scope);
        return next;
      }),
  };
  const respond = async (accept: boolean) => {
    if (!query) return;
    // The asked scopes unchanged are sent as none chosen: the request's own, as before.
    const scope = accept && dropped.size > 0 ? { scope: [...chosen].join(" ") } : {};
    if (await answer.run({ accept, oauth_query: query, ...scope })) setLeaving(true);
  };
  const info = found.data as OAuthPublicClient | null;

  let body = null;
  if (!query || !clientId)
    body = <ErrorMessage error={{ message: t("oauth.request.invalid") }} testId="oauth-consent-error" />;
  else if (found.pending || session.isPending) body = <Loading />;
  else if (!info) body = <ErrorMessage error={found.error} testId="oauth-consent-error" />;
  else
    body = (
      <>
        <ClientHeader client={info} />
        <p>{t("oauth.consent.intro", { client: info.client_name, email: session.data?.user.email ?? "" })}</p>
        {scopes.length > 0 && (
          <>
            <p>{t("oauth.consent.asks")}</p>
            <ScopeList scopes={scopes} choice={scopes.length > 1 ? choice : undefined} />
          </>
        )}
        <ErrorMessage error={answer.error} testId="oauth-consent-error" />
        <Actions>
          <Button
            type="button"
            pending={answer.pending || leaving}
            disabled={chosen.size === 0}
            data-testid="oauth-consent-allow"
            onClick={() => void respond(true)}
          >
            {t("oauth.consent.allow")}
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={answer.pending || leaving}
            data-testid="oauth-consent-deny"
            onClick={() => void respond(false)}
          >
            {t("oauth.consent.deny")}
          </Button>
        </Actions>
        <p className="gh-hint">{t("oauth.consent.note")}</p>
      </>
    );
  return (
    <ComponentRoot
      t={t}
      navigate={navigate}
      locale={localization}
      appearance={appearance}
      title={t("oauth.consent.title")}
      testId="gh-oauth-consent"
      headingLevel={headingLevel}
    >
      {body}
    </ComponentRoot>
  );
}
