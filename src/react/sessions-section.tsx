import { useState } from "react";
import type { ListedSession } from "../contract/models.js";
import type { SecurityActivity } from "../contract/security-activity.js";
import type { Translate } from "../i18n/index.js";
import { useConfirm } from "./confirm.js";
import { Actions, Button, ErrorMessage, Loading, Notice, Panel, useFrame } from "./form-parts.js";
import { describeDevice, RelativeTime, useLoad, withElements } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

/** Asks, signs one device out, and says which: shared by the sessions list and the activity's devices. */
function useSignOutDevice(onDone: () => void) {
  const { t } = useFrame();
  const client = useAuthClient();
  const revoke = useCall(client.revokeSession);
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = async (token: string, device: string) => {
    setNotice(null);
    const yes = await confirm({
      title: t("sessions.confirm.title", { device }),
      body: t("sessions.confirm.body", { device }),
      confirmLabel: t("sessions.confirm.accept"),
    });
    if (!yes) return;
    if (await revoke.run({ token })) setNotice(t("sessions.revoked", { device }));
    onDone();
  };
  return { signOut, dialog, notice, setNotice, revoke };
}

/** The devices signed in now, this one first; each other one can be signed out, or all of them at once. */
export function SessionsSection() {
  const { t } = useFrame();
  const client = useAuthClient();
  const sessions = useLoad(() => client.listSessions());
  const revokeOthers = useCall(client.revokeOtherSessions);
  const device = useSignOutDevice(sessions.reload);
  const { confirm, dialog } = useConfirm();
  const list = (sessions.data ?? []) as ListedSession[];
  const ordered = [...list].sort(
    (a, b) =>
      Number(b.current) - Number(a.current) || new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime(),
  );
  const name = (s: ListedSession) =>
    t("sessions.device", { device: describeDevice(s.userAgent, t), ip: s.ipAddress || t("common.unknown") });
  const pending = device.revoke.pending || revokeOthers.pending;
  return (
    <Panel title={t("sessions.title")} testId="sessions-card">
      {device.dialog}
      {dialog}
      {device.notice && (
        <Notice key={device.notice} testId="sessions-notice" takeFocus>
          {device.notice}
        </Notice>
      )}
      {sessions.pending ? (
        <Loading />
      ) : sessions.error ? (
        <ErrorMessage error={sessions.error} />
      ) : (
        <>
          <ul className="gh-list" data-testid="sessions-list">
            {ordered.map((session) => (
              <li key={session.id} className="gh-list-row" data-testid="session-row" data-current={session.current}>
                <div>
                  <strong>{describeDevice(session.userAgent, t)}</strong>
                  {session.current && <span className="gh-tag">{t("sessions.thisDevice")}</span>}
                  <p className="gh-hint">
                    {withElements(t("sessions.details", { ip: session.ipAddress || t("common.unknown") }), {
                      active: <RelativeTime date={session.updatedAt} testId="session-last-active" />,
                      created: <RelativeTime date={session.createdAt} />,
                    })}
                  </p>
                </div>
                {!session.current && (
                  <Button
                    type="button"
                    variant="secondary"
                    pending={pending}
                    data-testid="session-revoke"
                    aria-label={t("sessions.revokeLabel", {
                      device: describeDevice(session.userAgent, t),
                      ip: session.ipAddress || t("common.unknownIp"),
                    })}
                    onClick={() => void device.signOut(session.token, name(session))}
                  >
                    {t("userButton.signOut")}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {list.some((s) => !s.current) && (
            <Actions>
              <Button
                type="button"
                variant="danger"
                pending={pending}
                data-testid="sessions-revoke-others"
                onClick={async () => {
                  device.setNotice(null);
                  const yes = await confirm({
                    title: t("sessions.others.title"),
                    body: t("sessions.others.body", { count: list.filter((s) => !s.current).length }),
                    confirmLabel: t("sessions.others.accept"),
                  });
                  if (!yes) return;
                  if (await revokeOthers.run()) device.setNotice(t("sessions.others.done"));
                  sessions.reload();
                }}
              >
                {t("sessions.revokeOthers")}
              </Button>
            </Actions>
          )}
        </>
      )}
      <ErrorMessage error={device.revoke.error ?? revokeOthers.error} />
    </Panel>
  );
}

type Named = { browser: string | null; os: string | null };

/** "Firefox 121 on Linux", as the server read it from the user agent. */
function deviceName(device: Named, t: Translate): string {
  const browser = device.browser ?? t("device.browser");
  return device.os ? t("device.on", { browser, os: device.os }) : device.browser ? browser : t("device.unknown");
}

/** The account's recent sign-ins and signed-in devices (GET /security-activity); other devices can be signed out. */
export function ActivityPanel({
  activity,
  error,
  onChanged,
}: {
  activity: SecurityActivity | null;
  error: { code?: string; message?: string } | null;
  onChanged: () => void;
}) {
  const { t } = useFrame();
  const device = useSignOutDevice(onChanged);
  return (
    <Panel title={t("activity.title")} testId="security-activity-card">
      {device.dialog}
      {device.notice && (
        <Notice key={device.notice} testId="activity-notice" takeFocus>
          {device.notice}
        </Notice>
      )}
      {error ? (
        <ErrorMessage error={error} />
      ) : !activity ? (
        <Loading />
      ) : (
        <>
          <h3>{t("activity.devices")}</h3>
          <ul className="gh-list" data-testid="activity-devices">
            {activity.devices.map((d) => {
              const name = t("sessions.device", { device: deviceName(d, t), ip: d.ipAddress || t("common.unknown") });
              return (
                <li key={d.id} className="gh-list-row" data-testid="activity-device" data-current={d.current}>
                  <div>
                    <strong>{deviceName(d, t)}</strong>
                    {d.current && <span className="gh-tag">{t("sessions.thisDevice")}</span>}
                    <p className="gh-hint">
                      {withElements(t("activity.device", { ip: d.ipAddress || t("common.unknown") }), {
                        created: <RelativeTime date={d.signedInAt} />,
                        active: <RelativeTime date={d.lastActiveAt} />,
                      })}
                    </p>
                  </div>
                  {!d.current && (
                    <Button
                      type="button"
                      variant="secondary"
                      pending={device.revoke.pending}
                      data-testid="activity-device-revoke"
                      aria-label={t("sessions.revokeLabel", {
                        device: deviceName(d, t),
                        ip: d.ipAddress || t("common.unknownIp"),
                      })}
                      onClick={() => void device.signOut(d.id, name)}
                    >
                      {t("userButton.signOut")}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          <h3>{t("activity.signIns")}</h3>
          {activity.signIns.length === 0 ? (
            <p className="gh-hint">{t("activity.noSignIns")}</p>
          ) : (
            <ul className="gh-list" data-testid="activity-sign-ins">
              {activity.signIns.map((signIn, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two sign-ins may share a millisecond; the list is read-only.
                <li key={index} className="gh-list-row" data-testid="activity-sign-in" data-outcome={signIn.outcome}>
                  <div>
                    {withElements(
                      t("activity.signIn", {
                        device: deviceName(signIn, t),
                        ip: signIn.ipAddress || t("common.unknown"),
                      }),
                      { when: <RelativeTime date={signIn.at} /> },
                    )}
                    {signIn.outcome === "challenged" && <span className="gh-tag">{t("activity.challenged")}</span>}
                    {signIn.outcome === "failure" && (
                      <span className="gh-tag gh-tag-danger" data-testid="activity-refused">
                        {t("activity.refused")}
                      </span>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <ErrorMessage error={device.revoke.error} />
    </Panel>
  );
}
