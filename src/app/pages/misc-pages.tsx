import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { AcceptInvitation, useActiveOrganization, useSession, useUserInvitations } from "../../react/index.js";
import { PreferencesFooter } from "../components/preferences.js";
import { ComponentLayout } from "../components/shell.js";
import { Card, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useFormatDate, useI18n, usePageTitle, useT, withElements } from "../lib/i18n.js";
import { roleLabel } from "../lib/permissions.js";

export function HomePage() {
  const session = useSession();
  const active = useActiveOrganization();
  const invitations = useUserInvitations();
  const t = useT();
  const formatDate = useFormatDate();
  usePageTitle("nav.home");
  // What a page did before it sent the user here ("You left Acme.").
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const user = session.data?.user;
  if (!user) return <Loading />;
  return (
    <>
      <h1 data-testid="home-title">{t("home.welcome", { name: user.name })}</h1>
      {notice && (
        <Notice testId="home-notice" takeFocus>
          {notice}
        </Notice>
      )}
      {user.isAnonymous && (
        <Notice>
          {withElements(t("home.guest"), { link: <Link to="/sign-up">{t("signIn.createAccount")}</Link> })}
        </Notice>
      )}
      <Card title={t("nav.organization")}>
        {active.data ? (
          <p data-testid="home-active-org">
            {withElements(t("home.org.active", { count: active.data.members.length }), {
              organization: <Link to="/organization">{active.data.name}</Link>,
            })}
          </p>
        ) : (
          <p>
            {withElements(t("home.org.none"), { link: <Link to="/organizations/new">{t("home.org.create")}</Link> })}
          </p>
        )}
      </Card>
      {invitations.length > 0 && (
        <Card title={t("home.invitations")} testId="home-invitations">
          <ul className="rows">
            {invitations.map((inv) => (
              <li key={inv.id} className="row" data-testid="home-invitation">
                <span>
                  <strong>{inv.organizationName}</strong> · {roleLabel(inv.role ?? "member", t)} ·{" "}
                  {t("home.invitation.expires", { date: formatDate(inv.expiresAt) })}
                </span>
                <Link
                  to={`/accept-invitation/${inv.id}`}
                  className="button secondary"
                  aria-label={t("home.invitation.answerLabel", { organization: inv.organizationName })}
                >
                  {t("home.invitation.answer")}
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

/** Where the invitation mail lands: the exported AcceptInvitation, with this application's router and words. */
export function AcceptInvitationPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const { locale } = useI18n();
  const t = useT();
  return (
    <ComponentLayout titleKey="invitation.title">
      <AcceptInvitation
        invitationId={id}
        localization={locale}
        navigate={(href) => navigate(href)}
        onDeclined={({ name }) =>
          navigate("/", { state: { notice: t("invitation.declined", { organization: name }) } })
        }
      />
    </ComponentLayout>
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
  const t = useT();
  const formatDate = useFormatDate();
  usePageTitle("outbox.title");
  return (
    <>
      <main id="main" className="outbox-layout">
        <h1>{t("outbox.title")}</h1>
        <Card title={t("outbox.messages")} testId="outbox-card">
          <p className="hint">
            {t("outbox.intro")} <a href="/">{t("outbox.back")}</a>
          </p>
          {mail.isPending ? (
            <Loading />
          ) : mail.error ? (
            <FormError error={mail.error} />
          ) : mail.data.length === 0 ? (
            <p>{t("outbox.none")}</p>
          ) : (
            <ul className="rows" data-testid="outbox-list">
              {mail.data.map((m) => (
                <li key={m.id} className="row column" data-testid="outbox-mail">
                  <strong>{m.subject}</strong>
                  <p className="hint">
                    {t("outbox.details", { to: m.to, date: formatDate(m.createdAt), kind: m.kind })}
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
      <PreferencesFooter />
    </>
  );
}
