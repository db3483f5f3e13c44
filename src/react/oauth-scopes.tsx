import type { MessageKey } from "../i18n/index.js";
import { useFrame } from "./form-parts.js";

const KNOWN: Record<string, MessageKey> = {
  openid: "oauth.scope.openid",
  profile: "oauth.scope.profile",
  email: "oauth.scope.email",
  offline_access: "oauth.scope.offline_access",
};

/**
 * What the consent page lets the user choose: the scopes kept, changed by ticking; `required` ones
 * (openid, when asked: the sign-in itself) stay ticked.
 */
export interface ScopeChoice {
  chosen: ReadonlySet<string>;
  required: ReadonlySet<string>;
  onChange: (scope: string, kept: boolean) => void;
}

/**
 * The scopes a client asks for or holds, in words; a scope the catalogue does not know is named as
 * it is. With `choice`, each is a checkbox.
 */
export function ScopeList({
  scopes,
  testId = "oauth-scopes",
  choice,
}: {
  scopes: readonly string[];
  testId?: string;
  choice?: ScopeChoice;
}) {
  const { t } = useFrame();
  const unique = [...new Set(scopes.filter(Boolean))];
  const words = (scope: string) => (KNOWN[scope] ? t(KNOWN[scope]) : t("oauth.scope.other", { scope }));
  return (
    <ul className="gh-scopes" data-testid={testId}>
      {unique.map((scope) => (
        <li key={scope} data-scope={scope}>
          {choice ? (
            <label>
              <input
                type="checkbox"
                data-testid={`${testId}-choice`}
                value={scope}
                checked={choice.chosen.has(scope)}
                disabled={choice.required.has(scope)}
                onChange={(e) => choice.onChange(scope, e.target.checked)}
              />
              {words(scope)}
            </label>
          ) : (
            words(scope)
          )}
        </li>
      ))}
    </ul>
  );
}
