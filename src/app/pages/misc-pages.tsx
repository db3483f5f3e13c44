import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import {
  AcceptInvitation,
  useActiveOrganization,
  useListOrganizations,
  useSession,
  useUserInvitations,
} from "../../react/index.js";
import { ComponentLayout } from "../components/shell.js";
import { Button, Card, Field, Form, FormError, Loading, Notice } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useAppConfig } from "../lib/config.js";
import { useFormatDate, useI18n, usePageTitle, useT, withElements } from "../lib/i18n.js";
import { roleLabel } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";

export function HomePage() {
  const session = useSession();
  const active = useActiveOrganization();
  const invitations = useUserInvitations();
  const organizations = useListOrganizations();
  const t = useT();
  const formatDate = useFormatDate();
  usePageTitle("nav.home");
  // What a page did before it sent the user here ("You left Acme.").
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const user = session.data?.user;
  if (!user) return <Loading />;
  const hasOrganization = Boolean(active.data) || (organizations.data?.length ?? 0) > 0 || organizations.isPending;
  // Without any organization the next steps say what to do; the card would say it again.
  const showOrganizationCard = user.isAnonymous || hasOrganization;
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
      {!user.isAnonymous && <NamePrompt user={user} />}
      {!user.isAnonymous && <NextSteps user={user} hasOrganization={hasOrganization} />}
      {showOrganizationCard && (
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
      )}
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

type HomeUser = { id: string; name: string; email: string; emailVerified: boolean; twoFactorEnabled?: boolean | null };

const namePromptKey = (userId: string) => `gatehouse:name-prompt-done:${userId}`;

/**
 * A sign-in link or code creates the account with the address's local part as its name: the first
 * Home after that asks for a real one, empty, and can be skipped (remembered in this browser).
 */
function NamePrompt({ user }: { user: HomeUser }) {
  const t = useT();
  const update = useSubmit(authClient.updateUser);
  const [name, setName] = useState("");
  const [missing, setMissing] = useState(false);
  const [done, setDone] = useState(() => localStorage.getItem(namePromptKey(user.id)) === "1");
  const localPart = user.email.split("@")[0];
  if (done || user.name !== localPart) return null;
  const finish = () => {
    localStorage.setItem(namePromptKey(user.id), "1");
    setDone(true);
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMissing(!name.trim());
    if (!name.trim()) return;
    if (await update.run({ name: name.trim() })) finish();
  };
  return (
    <Card title={t("home.name.title")} testId="name-prompt">
      <p className="hint">{t("home.name.intro")}</p>
      <Form error={update.error} onSubmit={(event) => void onSubmit(event)}>
        <Field
          label={t("field.name")}
          testId="name-prompt-name"
          autoComplete="name"
          value={name}
          error={missing ? { key: "validation.name" } : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <FormError error={update.error} />
        <p className="actions">
          <Button pending={update.pending} data-testid="name-prompt-save">
            {t("home.name.save")}
          </Button>
          <Button type="button" variant="secondary" data-testid="name-prompt-skip" onClick={finish}>
            {t("home.name.skip")}
          </Button>
        </p>
      </Form>
    </Card>
  );
}

/** What a new account does next: prove its address, join an organization, add a second factor. */
function NextSteps({ user, hasOrganization }: { user: HomeUser; hasOrganization: boolean }) {
  const t = useT();
  const config = useAppConfig();
  const resend = useSubmit(authClient.sendVerificationEmail);
  const [sent, setSent] = useState(false);
  const passkeys = useQuery({
    queryKey: ["passkeys"],
    queryFn: () => unwrap(authClient.passkey.listUserPasskeys()),
    enabled: config.passkey,
  });
  const canSecure = config.passkey || config.twoFactor.enabled;
  const secured = Boolean(user.twoFactorEnabled) || (passkeys.data?.length ?? 0) > 0;
  const steps: { id: string; body: ReactNode }[] = [];
  if (!user.emailVerified) {
    steps.push({
      id: "verify",
      body: (
        <>
          <p>{t("home.next.verify", { email: user.email })}</p>
          {sent ? (
            <Notice testId="home-verification-sent">{t("verification.sent")}</Notice>
          ) : (
            <Button
              type="button"
              variant="secondary"
              pending={resend.pending}
              data-testid="home-resend-verification"
              onClick={async () => setSent(Boolean(await resend.run({ email: user.email, callbackURL: "/verified" })))}
            >
              {t("verification.send")}
            </Button>
          )}
          <FormError error={resend.error} />
        </>
      ),
    });
  }
  if (config.organization.enabled && !hasOrganization) {
    steps.push({
      id: "organization",
      body: (
        <p>
          {withElements(t("home.next.organization"), {
            link: <Link to="/organizations/new">{t("home.next.organizationLink")}</Link>,
          })}
        </p>
      ),
    });
  }
  if (canSecure && !secured && !(config.passkey && passkeys.isPending)) {
    steps.push({
      id: "secure",
      body: (
        <p>
          {withElements(t("home.next.secure"), {
            link: <Link to="/account/security">{t("home.next.secureLink")}</Link>,
          })}
        </p>
      ),
    });
  }
  if (steps.length === 0) return null;
  return (
    <Card title={t("home.next.title")} testId="home-next-steps">
      <ol className="next-steps">
        {steps.map((step) => (
          <li key={step.id} data-testid={`home-next-${step.id}`}>
            {step.body}
          </li>
        ))}
      </ol>
    </Card>
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
