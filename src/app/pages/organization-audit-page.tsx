import { Link } from "react-router";
import { useActiveMember, useActiveOrganization } from "../../react/index.js";
import { AuditTrailView } from "../components/audit-trail-view.js";
import { Card, Loading } from "../components/ui.js";
import { type AppConfig, useAppConfig } from "../lib/config.js";
import { usePageTitle, useT } from "../lib/i18n.js";
import { messageFor } from "../lib/messages.js";
import { holdsCreatorRole } from "../lib/permissions.js";

/** Whether the server lets this role read the organization's trail (its owners', docs/audit.md). */
export function readsOrganizationTrail(config: AppConfig, role: string | null | undefined): boolean {
  return config.audit.enabled && holdsCreatorRole(config.organization.roles, role);
}

/** The active organization's audit trail, for its owners; anyone else is told they may not read it. */
export function OrganizationAuditPage() {
  const active = useActiveOrganization();
  const member = useActiveMember();
  const config = useAppConfig();
  const t = useT();
  usePageTitle("audit.trail.title");
  const org = active.data;
  if (!org || member.isPending) return <Loading />;
  if (!readsOrganizationTrail(config, member.data?.role)) {
    return (
      <Card title={t("audit.trail.title")} testId="org-audit-refused">
        <p role="alert">{messageFor("YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_TRAIL", t)}</p>
        <Link to="/organization">{t("org.settings.title")}</Link>
      </Card>
    );
  }
  const names = new Map(org.members.map((m) => [m.userId, m.user?.name || m.user?.email || m.userId]));
  return (
    <Card title={t("audit.trail.title")} testId="org-audit-card">
      <AuditTrailView
        key={org.id}
        testId="org-audit"
        source={{
          area: "/organization",
          scope: { organizationId: org.id },
          actors: [...names].map(([id, label]) => ({ id, label })),
          nameOf: (id) => names.get(id),
        }}
      />
    </Card>
  );
}
