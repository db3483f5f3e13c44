import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PreferencesFooter } from "../components/preferences.js";
import { Card, FormError, Loading } from "../components/ui.js";
import { authClient, unwrap } from "../lib/client.js";
import { useFormatDate, usePageTitle, useT } from "../lib/i18n.js";

interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  createdAt: Date;
}

/** Links in the frame open in a new tab: the application refuses to be framed, so it could not open inside. */
const withNewTabLinks = (html: string) =>
  html.includes("<head>") ? html.replace("<head>", '<head><base target="_blank">') : `<base target="_blank">${html}`;

/** Development only: the mail the server would have sent, as its recipient would see it, with its links. */
export function OutboxPage() {
  const mail = useQuery({
    queryKey: ["dev-outbox"],
    queryFn: () => unwrap(authClient.$fetch<OutboxMail[]>("/dev/outbox", {}, { method: "GET" })),
    refetchInterval: 3000,
  });
  const t = useT();
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
              {mail.data.map((m, index) => (
                <OutboxItem key={m.id} mail={m} open={index === 0} />
              ))}
            </ul>
          )}
        </Card>
      </main>
      <PreferencesFooter />
    </>
  );
}

/** One mail: its subject and links, and (the newest open) the HTML part in a frame or the text part. */
function OutboxItem({ mail, open }: { mail: OutboxMail; open: boolean }) {
  const t = useT();
  const formatDate = useFormatDate();
  const [view, setView] = useState<"html" | "text">("html");
  const links = [...new Set(mail.text.match(/https?:\/\/[^\s<>"]+/g))];
  return (
    <li className="row column" data-testid="outbox-mail">
      <strong>{mail.subject}</strong>
      <p className="hint">{t("outbox.details", { to: mail.to, date: formatDate(mail.createdAt), kind: mail.kind })}</p>
      <ul>
        {links.map((link) => (
          <li key={link}>
            <a href={link} className="outbox-link" data-testid="outbox-link">
              {link}
            </a>
          </li>
        ))}
      </ul>
      <details open={open} className="outbox-message">
        <summary>{t("outbox.show")}</summary>
        {/* biome-ignore lint/a11y/useSemanticElements: two toggle buttons, one pressed, as a labelled group */}
        <div className="outbox-tabs" role="group" aria-label={t("outbox.part")}>
          <button
            type="button"
            className="button secondary"
            aria-pressed={view === "html"}
            data-testid="outbox-view-html"
            onClick={() => setView("html")}
          >
            {t("outbox.html")}
          </button>
          <button
            type="button"
            className="button secondary"
            aria-pressed={view === "text"}
            data-testid="outbox-view-text"
            onClick={() => setView("text")}
          >
            {t("outbox.text")}
          </button>
        </div>
        {view === "html" ? (
          // No allow-scripts and no allow-same-origin: the mail's HTML can run nothing and reach nothing.
          <iframe
            className="outbox-preview"
            title={mail.subject}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={withNewTabLinks(mail.html)}
            data-testid="outbox-html"
          />
        ) : (
          <pre className="outbox-text" data-testid="outbox-text">
            {mail.text}
          </pre>
        )}
      </details>
    </li>
  );
}
