import { useInfiniteQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { AUDIT_ACTIONS, type AuditTrailEntry, type AuditTrailPage } from "../../contract/audit.js";
import type { Translate } from "../../i18n/index.js";
import { authClient, unwrap } from "../lib/client.js";
import { useFormatDate, useT } from "../lib/i18n.js";
import { Button, Field, Form, FormError, Loading, Select } from "./ui.js";

/** The filters as the form holds them: text, empty for "any"; times as datetime-local values. */
interface TrailForm {
  actorId: string;
  action: string;
  from: string;
  to: string;
}

const EMPTY: TrailForm = { actorId: "", action: "", from: "", to: "" };
const PAGE = 25;

/** The query both trail routes take: local times become instants, empty fields are left out. */
function queryOf(form: TrailForm): Record<string, string> {
  const query: Record<string, string> = {};
  if (form.actorId.trim()) query.actorId = form.actorId.trim();
  if (form.action) query.action = form.action;
  for (const key of ["from", "to"] as const) {
    const time = form[key] ? new Date(form[key]) : null;
    if (time && !Number.isNaN(time.getTime())) query[key] = time.toISOString();
  }
  return query;
}

export interface AuditTrailSource {
  /** Where the list and export routes are: "/admin" or "/organization". */
  area: "/admin" | "/organization";
  /** Always sent: the organization, for an organization's trail. */
  scope: Record<string, string>;
  /** People to pick as actor (an organization's members); without them the actor is typed as an id. */
  actors?: { id: string; label: string }[];
  /** A name for an actor id, where one is known. */
  nameOf?: (id: string) => string | undefined;
}

/**
 * The security audit trail (docs/audit.md), one screen for admins and organization owners: filter
 * by actor, action and time, page back with "Load more" (the routes' cursor), and download what the
 * filter matches as JSON Lines or CSV from the export route.
 */
export function AuditTrailView({ source, testId }: { source: AuditTrailSource; testId: string }) {
  const t = useT();
  const [draft, setDraft] = useState<TrailForm>(EMPTY);
  const [applied, setApplied] = useState<Record<string, string>>({});
  const filters = { ...source.scope, ...applied };
  const trail = useInfiniteQuery({
    queryKey: ["audit-trail", source.area, filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = { ...filters, limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) };
      // Both readers take the same query; the organization's also names the organization (scope).
      return unwrap<AuditTrailPage>(
        source.area === "/admin"
          ? authClient.admin.listAuditTrail({ query } as never)
          : authClient.organization.listAuditTrail({ query } as never),
      );
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const exportHref = (format: "jsonl" | "csv") =>
    `${authClient.apiURL}${source.area}/export-audit-trail?${new URLSearchParams({ ...filters, format })}`;
  const set = (key: keyof TrailForm) => (event: { target: { value: string } }) =>
    setDraft((form) => ({ ...form, [key]: event.target.value }));
  const entries = trail.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div data-testid={testId}>
      <Form
        aria-label={t("audit.filter.apply")}
        className="inline-form"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setApplied(queryOf(draft));
        }}
      >
        {source.actors ? (
          <Select label={t("audit.filter.actor")} testId="audit-actor" value={draft.actorId} onChange={set("actorId")}>
            <option value="">{t("audit.filter.anyActor")}</option>
            {source.actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.label}
              </option>
            ))}
          </Select>
        ) : (
          <Field
            label={t("audit.filter.actor")}
            hint={t("audit.filter.actorHint")}
            testId="audit-actor"
            value={draft.actorId}
            onChange={set("actorId")}
            maxLength={200}
          />
        )}
        <Select label={t("audit.filter.action")} testId="audit-action" value={draft.action} onChange={set("action")}>
          <option value="">{t("audit.filter.anyAction")}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </Select>
        <Field
          label={t("audit.filter.from")}
          testId="audit-from"
          type="datetime-local"
          value={draft.from}
          onChange={set("from")}
        />
        <Field
          label={t("audit.filter.to")}
          testId="audit-to"
          type="datetime-local"
          value={draft.to}
          onChange={set("to")}
        />
        <Button data-testid="audit-filter-submit">{t("audit.filter.apply")}</Button>
      </Form>
      <p className="row-actions">
        <a className="button secondary" href={exportHref("jsonl")} download data-testid="audit-export-jsonl">
          {t("audit.export.jsonl")}
        </a>
        <a className="button secondary" href={exportHref("csv")} download data-testid="audit-export-csv">
          {t("audit.export.csv")}
        </a>
      </p>
      {trail.isPending ? (
        <Loading />
      ) : trail.error ? (
        <FormError error={trail.error} />
      ) : (
        <>
          <AuditTrailList entries={entries} nameOf={source.nameOf} />
          {trail.hasNextPage && (
            <Button
              type="button"
              variant="secondary"
              pending={trail.isFetchingNextPage}
              data-testid="audit-load-more"
              onClick={() => trail.fetchNextPage()}
            >
              {t("audit.loadMore")}
            </Button>
          )}
        </>
      )}
    </div>
  );
}

function actorLabel(entry: AuditTrailEntry, t: Translate, nameOf?: (id: string) => string | undefined): string {
  if (entry.actorType === "key") {
    const name = entry.details?.apiKeyName;
    return t("audit.actor.key", { name: typeof name === "string" && name ? name : (entry.actorId ?? "") });
  }
  if (entry.actorId) return nameOf?.(entry.actorId) ?? entry.actorId;
  return entry.actorType === "system" ? t("audit.actor.system") : t("audit.actor.unknown");
}

/** Newest first: the action, a badge unless it succeeded, then when, who and from where. */
function AuditTrailList({
  entries,
  nameOf,
}: {
  entries: AuditTrailEntry[];
  nameOf?: (id: string) => string | undefined;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  if (entries.length === 0) return <p className="hint">{t("audit.none")}</p>;
  return (
    <ul className="rows" data-testid="audit-trail-list">
      {entries.map((entry) => (
        <li key={entry.id} className="row" data-testid="audit-trail-row" data-action={entry.action}>
          <div>
            <strong>{entry.action}</strong>
            {entry.outcome !== "success" && (
              <span className={entry.outcome === "failure" ? "badge danger" : "badge"}>
                {t(entry.outcome === "failure" ? "audit.outcome.failure" : "audit.outcome.challenged")}
              </span>
            )}
            <p className="hint">
              {t("audit.entry", {
                date: formatDate(entry.createdAt),
                actor: actorLabel(entry, t, nameOf),
                ip: entry.ipAddress || t("common.unknown"),
              })}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
