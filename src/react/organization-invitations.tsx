import { useState } from "react";
import type { FullOrganization, Invitation } from "../contract/api-models.js";
import { formatDateTime } from "../i18n/index.js";
import { useConfirm } from "./confirm.js";
import { Button, EMAIL_PATTERN, ErrorMessage, Field, type FieldMessage, Form, Notice, useFrame } from "./form-parts.js";
import type { Localization } from "./localization.js";
import { RowButton, SelectField } from "./organization-parts.js";
import { roleLabel, useRoles } from "./organization-roles.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

const statusKeys = {
  pending: "invitations.status.pending",
  accepted: "invitations.status.accepted",
  rejected: "invitations.status.rejected",
  canceled: "invitations.status.canceled",
} as const satisfies Record<Invitation["status"], string>;

/** Inviting (owners and admins) and the organization's invitations with resend and cancel. */
export function OrganizationInvitationsSection({
  organization: org,
  role,
  localization = "en",
}: {
  organization: FullOrganization;
  role: string | null | undefined;
  localization?: Localization;
}) {
  const { can, assignable } = useRoles();
  const { t } = useFrame();
  const client = useAuthClient();
  const invite = useCall(client.organization.inviteMember);
  const cancel = useCall(client.organization.cancelInvitation);
  const { confirm, dialog } = useConfirm();
  const [email, setEmail] = useState("");
  const [inviteRole, setInviteRole] = useState("member");
  const [teamId, setTeamId] = useState("");
  const [emailError, setEmailError] = useState<FieldMessage | undefined>();
  const [sent, setSent] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState<string | null>(null);
  const mayInvite = can(role, "invitation", "create");
  const teams = org.teams ?? [];
  const inviterName = (userId: string) => {
    const user = org.members.find((m) => m.userId === userId)?.user;
    return user
      ? t("details.members.invitedBy", { name: user.name || user.email })
      : t("details.members.invitedByFormer");
  };

  const onInvite = async () => {
    setSent(null);
    if (!EMAIL_PATTERN.test(email.trim())) return setEmailError({ key: "validation.email" });
    setEmailError(undefined);
    const data = await invite.run({
      email: email.trim(),
      role: inviteRole as "member" | "admin" | "owner",
      ...(teamId ? { teamId } : {}),
      organizationId: org.id,
    });
    if (data) {
      setEmail("");
      setSent(t("invite.sent", { email: data.email }));
    }
  };

  if (!mayInvite) return <p data-testid="invitations-restricted">{t("invitations.restricted")}</p>;
  const invitations = org.invitations ?? [];
  return (
    <div className="gh-section">
      {dialog}
      <div className="gh-section" data-testid="invite-card">
        <h3>{t("invite.title")}</h3>
        {sent && <Notice testId="invite-sent">{sent}</Notice>}
        <Form label={t("invite.title")} error={invite.error} onSubmit={() => void onInvite()}>
          <Field
            label={t("field.email")}
            testId="invite-email"
            type="email"
            value={email}
            error={emailError}
            onChange={(e) => setEmail(e.target.value)}
          />
          <SelectField
            label={t("field.role")}
            testId="invite-role"
            value={inviteRole}
            onChange={(e) => setInviteRole(e.target.value)}
          >
            {assignable(role).map((name) => (
              <option key={name} value={name}>
                {roleLabel(name, t)}
              </option>
            ))}
          </SelectField>
          {teams.length > 0 && (
            <SelectField
              label={t("invite.team")}
              testId="invite-team"
              value={teamId}
              onChange={(e) => setTeamId(e.target.value)}
            >
              <option value="">{t("invite.noTeam")}</option>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </SelectField>
          )}
          <ErrorMessage error={invite.error} />
          <Button pending={invite.pending} data-testid="invite-submit">
            {t("invite.submit")}
          </Button>
        </Form>
      </div>
      <div className="gh-section" data-testid="invitations-card">
        <h3>{t("invitations.title")}</h3>
        {cancelled && (
          <Notice key={cancelled} testId="invitation-cancelled" takeFocus>
            {cancelled}
          </Notice>
        )}
        {invitations.length === 0 ? (
          <p className="gh-hint">{t("invitations.none")}</p>
        ) : (
          <ul className="gh-list" data-testid="invitations-list">
            {invitations.map((invitation) => (
              <li key={invitation.id} data-testid="invitation-row" data-status={invitation.status}>
                <div className="gh-grow">
                  <strong>{invitation.email}</strong>{" "}
                  <span className="gh-tag">{roleLabel(invitation.role ?? "member", t)}</span>
                  <p className="gh-hint">
                    {t("invitations.details", {
                      status: t(statusKeys[invitation.status]),
                      date: formatDateTime(localization, invitation.expiresAt),
                    })}
                  </p>
                  <p className="gh-hint" data-testid="invitation-inviter">
                    {inviterName(invitation.inviterId)}
                  </p>
                </div>
                {can(role, "invitation", "cancel") && invitation.status === "pending" && (
                  <>
                    <RowButton
                      data-testid="invitation-resend"
                      aria-label={t("invitations.resendLabel", { email: invitation.email })}
                      onClick={() =>
                        void invite
                          .run({
                            email: invitation.email,
                            role: (invitation.role ?? "member") as "member" | "admin" | "owner",
                            resend: true,
                            organizationId: org.id,
                          })
                          .then((data) => data && setSent(t("invite.resent", { email: data.email })))
                      }
                    >
                      {t("invitations.resend")}
                    </RowButton>
                    <RowButton
                      data-testid="invitation-cancel"
                      aria-label={t("invitations.cancelLabel", { email: invitation.email })}
                      onClick={async () => {
                        const yes = await confirm({
                          title: t("invitations.cancel.confirm.title", { email: invitation.email }),
                          body: t("invitations.cancel.confirm.body", { email: invitation.email }),
                          confirmLabel: t("invitations.cancel.confirm.accept"),
                        });
                        if (yes && (await cancel.run({ invitationId: invitation.id })))
                          setCancelled(t("invitations.cancel.done", { email: invitation.email }));
                      }}
                    >
                      {t("invitations.cancel")}
                    </RowButton>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        <ErrorMessage error={cancel.error} />
      </div>
    </div>
  );
}
