import type { MessageKey } from "../i18n/index.js";
import { useFrame } from "./form-parts.js";

const KNOWN: Record<string, MessageKey> = {
  openid: "oauth.scope.openid",
  profile: "oauth.scope.profile",
  email: "oauth.scope.email",
  offline_access: "oauth.scope.offline_access",
};

/** The scopes a client asks for or holds, in words; a scope the catalogue does not know is named as it is. */
export function ScopeList({ scopes, testId = "oauth-scopes" }: { scopes: readonly string[]; testId?: string }) {
  const { t } = useFrame();
  const unique = [...new Set(scopes.filter(Boolean))];
  return (
    <ul className="gh-scopes" data-testid={testId}>
      {unique.map((scope) => (
        <li key={scope} data-scope={scope}>
          {KNOWN[scope] ? t(KNOWN[scope]) : t("oauth.scope.other", { scope })}
        </li>
      ))}
    </ul>
  );
}
