import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { SecurityActivity } from "../../contract/security-activity.js";
import type { Translate } from "../../i18n/index.js";
import { authClient, unwrap } from "../lib/client.js";
import { useT, withElements } from "../lib/i18n.js";
import { useSubmit } from "../lib/use-submit.js";
import { useConfirm } from "./confirm-dialog.js";
import { RelativeTime } from "./relative-time.js";
import { Button, Card, FormError, Loading, Notice } from "./ui.js";

type Named = { browser: string | null; os: string | null };

/** "Firefox 121 on Linux", as the server read it from the user agent. */
function deviceName(device: Named, t: Translate): string {
  const browser = device.browser ?? t("device.browser");
  return device.os ? t("device.on", { browser, os: device.os }) : device.browser ? browser : t("device.unknown");
}

/** The account's recent sign-ins and signed-in devices (GET /security-activity); other devices can be signed out. */
export function SecurityActivityCard() {
  const t = useT();
  const queryClient = useQueryClient();
  const activity = useQuery({
    queryKey: ["security-activity"],
    queryFn: () => unwrap(authClient.securityActivity()) as Promise<SecurityActivity>,
  });
  const revoke = useSubmit(authClient.revokeSession);
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card title={t("activity.title")} testId="security-activity-card">
      {dialog}
      {notice && (
        <Notice key={notice} testId="activity-notice" takeFocus>
          {notice}
        </Notice>
      )}
      {activity.isPending ? (
        <Loading />
      ) : activity.error ? (
        <FormError error={activity.error} />
      ) : (
        <>
          <h3>{t("activity.devices")}</h3>
          <ul className="rows" data-testid="activity-devices">
            {activity.data.devices.map((device) => (
              <li key={device.id} className="row" data-testid="activity-device" data-current={device.current}>
                <div>
                  <strong>{deviceName(device, t)}</strong>
                  {device.current && <span className="badge">{t("sessions.thisDevice")}</span>}
                  <p className="hint">
                    {withElements(t("activity.device", { ip: device.ipAddress || t("common.unknown") }), {
                      created: <RelativeTime date={device.signedInAt} />,
                      active: <RelativeTime date={device.lastActiveAt} />,
                    })}
                  </p>
                </div>
                {!device.current && (
                  <Button
                    type="button"
                    variant="secondary"
                    pending={revoke.pending}
                    data-testid="activity-device-revoke"
                    aria-label={t("sessions.revokeLabel", {
                      device: deviceName(device, t),
                      ip: device.ipAddress || t("common.unknownIp"),
                    })}
                    onClick={async () => {
                      setNotice(null);
                      const name = t("sessions.device", {
                        device: deviceName(device, t),
                        ip: device.ipAddress || t("common.unknown"),
                      });
                      const yes = await confirm({
                        title: t("sessions.confirm.title", { device: name }),
                        body: t("sessions.confirm.body", { device: name }),
                        confirmLabel: t("sessions.confirm.accept"),
                      });
                      if (!yes) return;
                      if (await revoke.run({ token: device.id })) setNotice(t("sessions.revoked", { device: name }));
                      await queryClient.invalidateQueries({ queryKey: ["security-activity"] });
                      await queryClient.invalidateQueries({ queryKey: ["sessions"] });
                    }}
                  >
                    {t("userButton.signOut")}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <h3>{t("activity.signIns")}</h3>
          {activity.data.signIns.length === 0 ? (
            <p className="hint">{t("activity.noSignIns")}</p>
          ) : (
            <ul className="rows" data-testid="activity-sign-ins">
              {activity.data.signIns.map((signIn, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two sign-ins may share a millisecond; the list is read-only.
                <li key={index} className="row" data-testid="activity-sign-in" data-outcome={signIn.outcome}>
                  <div>
                    {withElements(
                      t("activity.signIn", {
                        device: deviceName(signIn, t),
                        ip: signIn.ipAddress || t("common.unknown"),
                      }),
                      { when: <RelativeTime date={signIn.at} /> },
                    )}
                    {signIn.outcome === "challenged" && <span className="badge">{t("activity.challenged")}</span>}
                    {signIn.outcome === "failure" && (
                      <span className="badge danger" data-testid="activity-refused">
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
    </Card>
  );
}
