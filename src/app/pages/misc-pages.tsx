import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { refreshUserInvitations, useActiveOrganization, useSession, useUserInvitations } from "../../react/index.js";
import { AuthLayout } from "../components/shell.js";
import { Button, Card, FormError, formatDate, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { roleLabel } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

export function HomePage() {
  const session = useSession();
  const active = useActiveOrganization();
  const invitations = useUserInvitations();
  // What a page did before it sent the user here ("You left Acme.").
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const user = session.data?.user;
  if (!user) return <Loading />;
  return (
    <>
      <h1 data-testid="home-title">Welcome, {user.name}</h1>
      {notice && (
        <Notice testId="home-notice" takeFocus>
          {notice}
        </Notice>
      )}
      {user.isAnonymous && (
        <Notice>
          You are browsing as a guest. <Link to="/sign-up">Create an account</Link> to keep your work.
        </Notice>
      )}
      <Card title="Organization">
        {active.data ? (
          <p data-testid="home-active-org">
            Working in <Link to="/organization">{active.data.name}</Link> with {active.data.members.length} member(s).
          </p>
        ) : (
          <p>
            No active organization. <Link to="/organizations/new">Create one</Link> or pick one above.
          </p>
        )}
      </Card>
      {invitations.length > 0 && (
        <Card title="Invitations for you" testId="home-invitations">
          <ul className="rows">
            {invitations.map((inv) => (
              <li key={inv.id} className="row" data-testid="home-invitation">
                <span>
                  <strong>{inv.organizationName}</strong> · {roleLabel(inv.role ?? "member")} · expires{" "}
                  {formatDate(inv.expiresAt)}
                </span>
                <Link
                  to={`/accept-invitation/${inv.id}`}
                  className="button secondary"
                  aria-label={`Answer the invitation to ${inv.organizationName}`}
                >
                  Answer
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

/** Where the invitation mail lands: the invitee accepts or declines, signing in first if needed. */
export function AcceptInvitationPage() {
  const { id = "" } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const invitation = useQuery({
    queryKey: ["invitation", id],
    queryFn: () => unwrap(authClient.organization.getInvitation({ query: { id } })),
    enabled: Boolean(session.data),
  });
  const accept = useSubmit(authClient.organization.acceptInvitation);
  const reject = useSubmit(authClient.organization.rejectInvitation);
  const here = encodeURIComponent(`/accept-invitation/${id}`);
  if (session.isPending) return <Loading />;
  return (
    <AuthLayout title="Invitation">
      {!session.data ? (
        <>
          <p>Sign in or create an account with the invited email address to answer this invitation.</p>
          <p className="actions">
            <Link className="button primary" to={`/sign-in?redirectTo=${here}`} data-testid="invitation-sign-in">
              Sign in
            </Link>
            <Link className="button secondary" to={`/sign-up?redirectTo=${here}`} data-testid="invitation-sign-up">
              Create an account
            </Link>
          </p>
        </>
      ) : invitation.isPending ? (
        <Loading />
      ) : invitation.error ? (
        <FormError error={invitation.error} testId="invitation-error" />
      ) : (
        <>
          <p data-testid="invitation-summary">
            <strong>{invitation.data.inviterEmail}</strong> invites you to join{" "}
            <strong>{invitation.data.organizationName}</strong> as {roleLabel(invitation.data.role ?? "member")}.
          </p>
          <p className="hint">Expires {formatDate(invitation.data.expiresAt)}.</p>
          <FormError error={accept.error ?? reject.error} />
          <p className="actions">
            <Button
              type="button"
              pending={accept.pending}
              data-testid="invitation-accept"
              onClick={async () => {
                if (!(await accept.run({ invitationId: id }))) return;
                refreshUserInvitations();
                await authClient.$store.activeOrganization.refetch();
                navigate("/organization");
              }}
            >
              Accept
            </Button>
            <Button
              type="button"
              variant="secondary"
              pending={reject.pending}
              data-testid="invitation-reject"
              onClick={async () => {
                if (!(await reject.run({ invitationId: id }))) return;
                refreshUserInvitations();
                navigate("/", {
                  state: { notice: `You declined the invitation to ${invitation.data.organizationName}.` },
                });
              }}
            >
              Decline
            </Button>
          </p>
        </>
      )}
    </AuthLayout>
  );
}

interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  createdAt: Date;
}

/** Development only: the mail the server would have sent, with its links to follow. */
export function OutboxPage() {
  const mail = useQuery({
    queryKey: ["dev-outbox"],
    queryFn: () => unwrap(authClient.$fetch<OutboxMail[]>("/dev/outbox", {}, { method: "GET" })),
    refetchInterval: 3000,
  });
  return (
    <main id="main" className="outbox-layout">
      <h1>Mail outbox (development)</h1>
      <Card title="Messages" testId="outbox-card">
        <p className="hint">
          SMTP is not configured, so mail stays here instead of being sent. <a href="/">Back to the application</a>
        </p>
        {mail.isPending ? (
          <Loading />
        ) : mail.error ? (
          <FormError error={mail.error} />
        ) : mail.data.length === 0 ? (
          <p>No mail yet.</p>
        ) : (
          <ul className="rows" data-testid="outbox-list">
            {mail.data.map((m) => (
              <li key={m.id} className="row column" data-testid="outbox-mail">
                <strong>{m.subject}</strong>
                <p className="hint">
                  To {m.to} · {formatDate(m.createdAt)} · {m.kind}
                </p>
                <ul>
                  {[...new Set(m.text.match(/https?:\/\/[^\s<>"]+/g))].map((link) => (
                    <li key={link}>
                      <a href={link} className="outbox-link" data-testid="outbox-link">
                        {link}
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  );
}
