import { type MouseEvent, useMemo } from "react";
import type { InvitationPreview } from "../contract/api-models.js";
import { Actions, Button, ComponentRoot, ErrorMessage, Loading, Notice, useFrame } from "./form-parts.js";
import { type Appearance, componentTranslator, type Labels, type Localization } from "./localization.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { roleLabel } from "./organization-roles.js";
import { useFormatDate, useLoad, withElements } from "./profile-parts.js";
import { useAuthClient, useSession } from "./provider.js";
import { refreshUserInvitations } from "./queries.js";
import { useCall } from "./use-call.js";

export interface AcceptInvitationProps {
  /** The invitation's id (from the mailed link). */
  invitationId: string;
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
  /** This page's address, where sign-up and sign-in come back to (default `/accept-invitation/<id>`). */
  returnHref?: string;
  /** Where "Create account" goes, with the invited address to prefill (default `/sign-up?email=…&redirectTo=…`). */
  signUpHref?: (email: string, returnHref: string) => string;
  /** Where "Sign in" goes (default `/sign-in?redirectTo=…`). */
  signInHref?: (returnHref: string) => string;
  /** Where to go once accepted (default `/organization`); the organization is active by then. */
  afterAcceptHref?: string;
  onAccepted?: (organization: { id: string; name: string }) => void;
  /** Where to go once declined (default `/`). */
  afterDeclineHref?: string;
  onDeclined?: (organization: { name: string }) => void;
}

/** A link drawn as a button: a plain click goes through `navigate`. */
function LinkButton({
  href,
  variant,
  testId,
  children,
}: {
  href: string;
  variant: "primary" | "secondary";
  testId: string;
  children: string;
}) {
  const { navigate } = useFrame();
  const onClick = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} className={`gh-button gh-${variant}`} data-testid={testId} onClick={onClick}>
      {children}
    </a>
  );
}

/**
 * Where an invitation mail lands: the organization, who invited and the role, signed in or out.
 * Signed out, "Create account" comes first (most invitees have none) with the invited address
 * prefilled; signed in as the invitee, accept or decline.
 *
 * @example
 * // the page at /accept-invitation/:id, where the invitation mail's link lands
 * <AcceptInvitation invitationId={id} navigate={navigate} afterAcceptHref="/organization" />
 */
export function AcceptInvitation({
  invitationId,
  localization = "en",
  labels,
  appearance,
  navigate = browserNavigate,
  returnHref = `/accept-invitation/${encodeURIComponent(invitationId)}`,
  signUpHref = (email, back) => `/sign-up?${new URLSearchParams({ email, redirectTo: back })}`,
  signInHref = (back) => `/sign-in?${new URLSearchParams({ redirectTo: back })}`,
  afterAcceptHref = "/organization",
  onAccepted,
  afterDeclineHref = "/",
  onDeclined,
}: AcceptInvitationProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  return (
    <ComponentRoot
      t={t}
      navigate={navigate}
      locale={localization}
      appearance={appearance}
      title={t("invitation.title")}
      testId="gh-accept-invitation"
    >
      <InvitationBody
        {...{
          invitationId,
          returnHref,
          signUpHref,
          signInHref,
          afterAcceptHref,
          onAccepted,
          afterDeclineHref,
          onDeclined,
        }}
      />
    </ComponentRoot>
  );
}

function InvitationBody({
  invitationId,
  returnHref,
  signUpHref,
  signInHref,
  afterAcceptHref,
  onAccepted,
  afterDeclineHref,
  onDeclined,
}: Required<
  Pick<
    AcceptInvitationProps,
    "invitationId" | "returnHref" | "signUpHref" | "signInHref" | "afterAcceptHref" | "afterDeclineHref"
  >
> &
  Pick<AcceptInvitationProps, "onAccepted" | "onDeclined">) {
  const { t, navigate } = useFrame();
  const client = useAuthClient();
  const session = useSession();
  const formatDate = useFormatDate();
  const preview = useLoad(() => client.organization.invitationPreview({ query: { id: invitationId } }));
  const accept = useCall(client.organization.acceptInvitation);
  const reject = useCall(client.organization.rejectInvitation);
  if (preview.pending || session.isPending) return <Loading />;
  if (preview.error) {
    return preview.error.code === "INVITATION_NOT_FOUND" ? (
      <p role="alert" className="gh-error" data-testid="invitation-error">
        {t("invitation.notFound")}
      </p>
    ) : (
      <ErrorMessage error={preview.error} testId="invitation-error" />
    );
  }
  const invitation = preview.data as InvitationPreview;
  const user = session.data?.user;
  const isInvitee = user?.email.toLowerCase() === invitation.email.toLowerCase();
  return (
    <>
      <p data-testid="invitation-summary">
        {withElements(t("invitation.summary", { role: roleLabel(invitation.role, t) }), {
          inviter: <strong data-testid="invitation-inviter">{invitation.inviterName}</strong>,
          organization: <strong data-testid="invitation-organization">{invitation.organizationName}</strong>,
        })}
      </p>
      <p className="gh-hint">{t("invitation.expires", { date: formatDate(invitation.expiresAt) })}</p>
      {!user ? (
        <>
          <p>
            {withElements(t("invitation.signedOut", { email: "{email}" }), {
              email: <strong>{invitation.email}</strong>,
            })}
          </p>
          <div className="gh-form">
            <LinkButton href={signUpHref(invitation.email, returnHref)} variant="primary" testId="invitation-sign-up">
              {t("invitation.createAccount")}
            </LinkButton>
            <LinkButton href={signInHref(returnHref)} variant="secondary" testId="invitation-sign-in">
              {t("signIn.submit")}
            </LinkButton>
          </div>
        </>
      ) : !isInvitee ? (
        <Notice testId="invitation-other-account">
          {t("invitation.otherAccount", { email: user.email, invited: invitation.email })}
        </Notice>
      ) : (
        <>
          <ErrorMessage error={accept.error ?? reject.error} />
          <Actions>
            <Button
              type="button"
              pending={accept.pending}
              data-testid="invitation-accept"
              onClick={async () => {
                const answer = await accept.run({ invitationId });
                if (!answer) return;
                refreshUserInvitations();
                await Promise.all([
                  client.$store.activeOrganization.refetch(),
                  client.$store.listOrganizations.refetch(),
                ]);
                const organization = { id: answer.invitation.organizationId, name: invitation.organizationName };
                if (onAccepted) onAccepted(organization);
                else navigate(afterAcceptHref);
              }}
            >
              {t("invitation.accept")}
            </Button>
            <Button
              type="button"
              variant="secondary"
              pending={reject.pending}
              data-testid="invitation-reject"
              onClick={async () => {
                if (!(await reject.run({ invitationId }))) return;
                refreshUserInvitations();
                if (onDeclined) onDeclined({ name: invitation.organizationName });
                else navigate(afterDeclineHref);
              }}
            >
              {t("invitation.decline")}
            </Button>
          </Actions>
        </>
      )}
    </>
  );
}
