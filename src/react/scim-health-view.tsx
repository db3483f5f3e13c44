import type { ScimConnectionHealth } from "../contract/scim.js";
import type { Translate } from "../i18n/index.js";

/**
 * A directory connection's sync as its owners read it: what it provisioned, its last call, and its
 * latest refused calls with SCIM's message. Drawn by the setup wizard (`<OrganizationSetup/>`) and the
 * app's directory page alike; each gives its own words, date format and test-id prefix.
 */
export function ScimHealthView({
  health,
  t,
  formatDate,
  testIdPrefix,
}: {
  health: ScimConnectionHealth;
  t: Translate;
  formatDate: (date: Date) => string;
  testIdPrefix: string;
}) {
  return (
    <>
      <p data-testid={`${testIdPrefix}scim-health-counts`}>
        {t("setup.directory.health", {
          users: health.users,
          groups: health.groups,
          lastSync: health.lastUsedAt ? formatDate(health.lastUsedAt) : t("directory.connection.never"),
        })}
      </p>
      {health.recentErrors.length === 0 ? (
        <p className="gh-hint">{t("setup.directory.noErrors")}</p>
      ) : (
        <>
          <p className="gh-label">{t("setup.directory.errors")}</p>
          <ul>
            {health.recentErrors.map((e) => (
              <li key={`${e.at.getTime()}-${e.method}-${e.path}`} data-testid={`${testIdPrefix}scim-health-error`}>
                {t("setup.directory.error", {
                  date: formatDate(e.at),
                  method: e.method,
                  path: e.path,
                  status: e.status,
                  detail: e.detail,
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
