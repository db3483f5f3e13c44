import { useId, useState } from "react";
import type { FullOrganization, MemberWithUser as Member } from "../contract/api-models.js";
import { Avatar } from "./avatar.js";
import { useConfirm } from "./confirm.js";
import { ErrorMessage, Notice, useFrame } from "./form-parts.js";
import { RowButton, SelectField } from "./organization-parts.js";
import { roleLabel, useRoles } from "./organization-roles.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

/**
 * The members, with role pickers, removal and ownership transfer only where the viewer's role
 * allows; then leaving, which the only owner is told to hand on first (the server refuses it).
 */
export function OrganizationMembersSection({
  organization: org,
  role,
  userId,
  onLeft,
}: {
  organization: FullOrganization;
  role: string | null | undefined;
  userId: string;
  onLeft: (name: string) => void;
}) {
  const { isOnlyOwner, memberControls } = useRoles();
  const { t } = useFrame();
  const client = useAuthClient();
  const updateRole = useCall(client.organization.updateMemberRole);
  const removeMember = useCall(client.organization.removeMember);
  const transfer = useCall(client.organization.transferOwnership);
  const leave = useCall(client.organization.leave);
  const { confirm, dialog } = useConfirm();
  // A removal's notice takes the focus (its button is gone); a role change's leaves it on the picker.
  const [notice, setNotice] = useState<{ text: string; takeFocus: boolean } | null>(null);
  const onlyOwnerId = useId();
  const nameOf = (m: Member) => m.user?.name || m.user?.email || m.userId;
  const names = new Map(org.members.map((m) => [m.userId, nameOf(m)]));
  const onlyOwner = isOnlyOwner(org.members, userId);

  const changeRole = async (m: Member, next: string) => {
    setNotice(null);
    // A change of role is no loss: a neutral question, not a red button.
    const yes = await confirm({
      title: t("members.role.confirm.title", { name: nameOf(m), role: roleLabel(next, t) }),
      body: t("members.role.confirm.body", {
        name: nameOf(m),
        from: roleLabel(m.role, t),
        role: roleLabel(next, t),
        organization: org.name,
      }),
      confirmLabel: t("members.role.confirm.accept"),
      tone: "primary",
    });
    if (yes && (await updateRole.run({ memberId: m.id, role: next, organizationId: org.id })))
      setNotice({ text: t("members.role.done", { name: nameOf(m), role: roleLabel(next, t) }), takeFocus: false });
  };
  const remove = async (m: Member) => {
    setNotice(null);
    const yes = await confirm({
      title: t("members.remove.confirm.title", { name: nameOf(m), organization: org.name }),
      body: t("members.remove.confirm.body", {
        name: nameOf(m),
        email: m.user?.email ?? m.userId,
        organization: org.name,
      }),
      confirmLabel: t("members.remove.confirm.accept"),
    });
    if (yes && (await removeMember.run({ memberIdOrEmail: m.id, organizationId: org.id })))
      setNotice({ text: t("members.remove.done", { name: nameOf(m), organization: org.name }), takeFocus: true });
  };
  const transferTo = async (m: Member) => {
    setNotice(null);
    const yes = await confirm({
      title: t("members.transfer.confirm.title", { name: nameOf(m), organization: org.name }),
      body: t("members.transfer.confirm.body", { name: nameOf(m), organization: org.name }),
      confirmLabel: t("members.transfer.submit"),
    });
    if (yes && (await transfer.run({ memberId: m.id, organizationId: org.id })))
      setNotice({ text: t("members.transfer.done", { name: nameOf(m) }), takeFocus: true });
  };

  return (
    <div className="gh-section">
      {dialog}
      {notice && (
        <Notice key={notice.text} testId="members-notice" takeFocus={notice.takeFocus}>
          {notice.text}
        </Notice>
      )}
      <ul className="gh-list" data-testid="members-list">
        {org.members.map((member) => {
          const who = member.user?.name ?? member.userId;
          const self = member.userId === userId;
          const controls = memberControls(role, member, self);
          const inviter = member.invitedBy ? names.get(member.invitedBy) : undefined;
          return (
            <li key={member.id} data-testid="member-row">
              <Avatar name={member.user?.name || member.user?.email || "?"} image={member.user?.image} />
              <div className="gh-grow">
                <strong>{who}</strong> {self && <span className="gh-tag">{t("members.you")}</span>}
                <p className="gh-hint">{member.user?.email}</p>
                {member.invitedBy && (
                  <p className="gh-hint" data-testid="member-invited-by">
                    {inviter ? t("details.members.invitedBy", { name: inviter }) : t("details.members.invitedByFormer")}
                  </p>
                )}
              </div>
              {controls.changeRole ? (
                <SelectField
                  label={t("members.roleOf", { name: who })}
                  testId="member-role"
                  value={member.role}
                  onChange={(e) => void changeRole(member, e.target.value)}
                >
                  {controls.roles.map((r) => (
                    <option key={r} value={r}>
                      {roleLabel(r, t)}
                    </option>
                  ))}
                </SelectField>
              ) : (
                <span className="gh-tag" data-testid="member-role-label">
                  {roleLabel(member.role, t)}
                </span>
              )}
              {controls.transferOwnership && (
                <RowButton
                  data-testid="member-transfer-ownership"
                  aria-label={t("members.transfer.label", { name: who })}
                  onClick={() => void transferTo(member)}
                >
                  {t("members.transfer.submit")}
                </RowButton>
              )}
              {controls.remove && (
                <RowButton
                  data-testid="member-remove"
                  aria-label={t("members.removeLabel", { name: who })}
                  onClick={() => void remove(member)}
                >
                  {t("common.remove")}
                </RowButton>
              )}
            </li>
          );
        })}
      </ul>
      <ErrorMessage error={updateRole.error ?? removeMember.error ?? transfer.error} />
      <div className="gh-section">
        <h3>{t("members.leave.title")}</h3>
        {onlyOwner && (
          <p className="gh-hint" id={onlyOwnerId} data-testid="org-leave-only-owner">
            {t("members.leave.onlyOwner")}
          </p>
        )}
        <ErrorMessage error={leave.error} />
        <RowButton
          variant="danger"
          disabled={onlyOwner || leave.pending}
          aria-describedby={onlyOwner ? onlyOwnerId : undefined}
          data-testid="org-leave"
          onClick={async () => {
            const yes = await confirm({
              title: t("members.leave.confirm.title", { organization: org.name }),
              body: t("members.leave.confirm.body", { organization: org.name }),
              confirmLabel: t("members.leave.title"),
            });
            if (yes && (await leave.run({ organizationId: org.id }))) onLeft(org.name);
          }}
        >
          {t("members.leave.submit", { organization: org.name })}
        </RowButton>
      </div>
    </div>
  );
}
