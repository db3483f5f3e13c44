import type { Invitation, MemberWithUser as Member } from "../../contract/api-models.js";
import { Avatar } from "../../react/index.js";
import { useFormatDate, useT } from "../lib/i18n.js";
import { memberControls, roleLabel } from "../lib/permissions.js";
import { Button, Select } from "./ui.js";

/** Props-only: the members, with role pickers and remove buttons only where the viewer's role allows. */
export function MembersTable({
  members,
  currentUserId,
  viewerRole,
  onRoleChange,
  onRemove,
  onTransferOwnership,
}: {
  members: Member[];
  currentUserId: string;
  viewerRole: string | null | undefined;
  onRoleChange: (member: Member, role: string) => void;
  onRemove: (member: Member) => void;
  onTransferOwnership: (member: Member) => void;
}) {
  const t = useT();
  const names = new Map(members.map((m) => [m.userId, m.user?.name || m.user?.email || m.userId]));
  return (
    <ul className="rows" data-testid="members-list">
      {members.map((member) => {
        const who = member.user?.name ?? member.userId;
        const self = member.userId === currentUserId;
        const controls = memberControls(viewerRole, member, self);
        const inviter = member.invitedBy ? names.get(member.invitedBy) : undefined;
        return (
          <li key={member.id} className="row" data-testid="member-row">
            <div className="member-who">
              <Avatar name={member.user?.name || member.user?.email || "?"} image={member.user?.image} />
              <div>
                <strong>{who}</strong> {self && <span className="badge">{t("members.you")}</span>}
                <p className="hint">{member.user?.email}</p>
                {member.invitedBy && (
                  <p className="hint" data-testid="member-invited-by">
                    {inviter ? t("details.members.invitedBy", { name: inviter }) : t("details.members.invitedByFormer")}
                  </p>
                )}
              </div>
            </div>
            {controls.changeRole ? (
              <Select
                label={t("members.roleOf", { name: who })}
                testId="member-role"
                value={member.role}
                onChange={(e) => onRoleChange(member, e.target.value)}
              >
                {controls.roles.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(role, t)}
                  </option>
                ))}
              </Select>
            ) : (
              <span className="badge" data-testid="member-role-label">
                {roleLabel(member.role, t)}
              </span>
            )}
            {controls.transferOwnership && (
              <Button
                type="button"
                variant="secondary"
                data-testid="member-transfer-ownership"
                aria-label={t("members.transfer.label", { name: who })}
                onClick={() => onTransferOwnership(member)}
              >
                {t("members.transfer.submit")}
              </Button>
            )}
            {controls.remove && (
              <Button
                type="button"
                variant="secondary"
                data-testid="member-remove"
                aria-label={t("members.removeLabel", { name: who })}
                onClick={() => onRemove(member)}
              >
                {t("common.remove")}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

const invitationStatusKeys = {
  pending: "invitations.status.pending",
  accepted: "invitations.status.accepted",
  rejected: "invitations.status.rejected",
  canceled: "invitations.status.canceled",
} as const satisfies Record<Invitation["status"], string>;

export function InvitationsTable({
  invitations,
  canCancel,
  onCancel,
  onResend,
  inviterName,
}: {
  invitations: Invitation[];
  canCancel: boolean;
  onCancel: (invitation: Invitation) => void;
  onResend: (invitation: Invitation) => void;
  /** The inviter's name, if they are still a member. */
  inviterName?: (userId: string) => string | undefined;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  const invitedBy = (name: string | undefined) =>
    name ? t("details.members.invitedBy", { name }) : t("details.members.invitedByFormer");
  if (invitations.length === 0) return <p className="hint">{t("invitations.none")}</p>;
  return (
    <ul className="rows" data-testid="invitations-list">
      {invitations.map((invitation) => (
        <li key={invitation.id} className="row" data-testid="invitation-row" data-status={invitation.status}>
          <div>
            <strong>{invitation.email}</strong>{" "}
            <span className="badge">{roleLabel(invitation.role ?? "member", t)}</span>
            <p className="hint">
              {t("invitations.details", {
                status: t(invitationStatusKeys[invitation.status]),
                date: formatDate(invitation.expiresAt),
              })}
            </p>
            {inviterName && (
              <p className="hint" data-testid="invitation-inviter">
                {invitedBy(inviterName(invitation.inviterId))}
              </p>
            )}
          </div>
          {canCancel && invitation.status === "pending" && (
            <span className="row-actions">
              <Button
                type="button"
                variant="secondary"
                data-testid="invitation-resend"
                aria-label={t("invitations.resendLabel", { email: invitation.email })}
                onClick={() => onResend(invitation)}
              >
                {t("invitations.resend")}
              </Button>
              <Button
                type="button"
                variant="secondary"
                data-testid="invitation-cancel"
                aria-label={t("invitations.cancelLabel", { email: invitation.email })}
                onClick={() => onCancel(invitation)}
              >
                {t("invitations.cancel")}
              </Button>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
