import type { Invitation, MemberWithUser as Member } from "../../contract/api-models.js";
import { memberControls, roleLabel } from "../lib/permissions.js";
import { Button, formatDate, Select } from "./ui.js";

/** Props-only: the members, with role pickers and remove buttons only where the viewer's role allows. */
export function MembersTable({
  members,
  currentUserId,
  viewerRole,
  onRoleChange,
  onRemove,
}: {
  members: Member[];
  currentUserId: string;
  viewerRole: string | null | undefined;
  onRoleChange: (member: Member, role: string) => void;
  onRemove: (member: Member) => void;
}) {
  return (
    <ul className="rows" data-testid="members-list">
      {members.map((member) => {
        const who = member.user?.name ?? member.userId;
        const self = member.userId === currentUserId;
        const controls = memberControls(viewerRole, member, self);
        return (
          <li key={member.id} className="row" data-testid="member-row">
            <div>
              <strong>{who}</strong> {self && <span className="badge">You</span>}
              <p className="hint">{member.user?.email}</p>
            </div>
            {controls.changeRole ? (
              <Select
                label={`Role of ${who}`}
                testId="member-role"
                value={member.role}
                onChange={(e) => onRoleChange(member, e.target.value)}
              >
                {controls.roles.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(role)}
                  </option>
                ))}
              </Select>
            ) : (
              <span className="badge" data-testid="member-role-label">
                {roleLabel(member.role)}
              </span>
            )}
            {controls.remove && (
              <Button
                type="button"
                variant="secondary"
                data-testid="member-remove"
                aria-label={`Remove ${who}`}
                onClick={() => onRemove(member)}
              >
                Remove
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function InvitationsTable({
  invitations,
  canCancel,
  onCancel,
  onResend,
}: {
  invitations: Invitation[];
  canCancel: boolean;
  onCancel: (invitation: Invitation) => void;
  onResend: (invitation: Invitation) => void;
}) {
  if (invitations.length === 0) return <p className="hint">No invitations yet.</p>;
  return (
    <ul className="rows" data-testid="invitations-list">
      {invitations.map((invitation) => (
        <li key={invitation.id} className="row" data-testid="invitation-row" data-status={invitation.status}>
          <div>
            <strong>{invitation.email}</strong> <span className="badge">{roleLabel(invitation.role ?? "member")}</span>
            <p className="hint">
              {invitation.status} · expires {formatDate(invitation.expiresAt)}
            </p>
          </div>
          {canCancel && invitation.status === "pending" && (
            <span className="row-actions">
              <Button
                type="button"
                variant="secondary"
                data-testid="invitation-resend"
                aria-label={`Resend the invitation to ${invitation.email}`}
                onClick={() => onResend(invitation)}
              >
                Resend
              </Button>
              <Button
                type="button"
                variant="secondary"
                data-testid="invitation-cancel"
                aria-label={`Cancel the invitation to ${invitation.email}`}
                onClick={() => onCancel(invitation)}
              >
                Cancel
              </Button>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
