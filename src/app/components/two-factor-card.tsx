import { type FormEvent, useState } from "react";
import { renderSVG } from "uqr";
import { authClient } from "../lib/client.js";
import { useT } from "../lib/i18n.js";
import { enrolError } from "../lib/messages.js";
import { useSubmit } from "../lib/use-submit.js";
import { Button, Card, Field, FormError, Notice } from "./ui.js";

/** The QR code is drawn here, in the browser: the secret never goes to another service. */
function QrCode({ uri }: { uri: string }) {
  const t = useT();
  const src = `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(uri, { border: 2 }))}`;
  return <img className="qr-code" src={src} width={192} height={192} alt={t("twoFactor.qrAlt")} />;
}

function BackupCodes({ codes }: { codes: string[] }) {
  const t = useT();
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(`${codes.join("\n")}\n`)}`;
  return (
    <div data-testid="backup-codes">
      <p>{t("twoFactor.backupCodes.intro")}</p>
      <ul className="backup-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <a href={file} download="backup-codes.txt" data-testid="backup-codes-download">
        {t("twoFactor.backupCodes.download")}
      </a>
    </div>
  );
}

/** Account security: turn TOTP two-factor on (scan, confirm with a code, keep the backup codes), off, or renew the codes. */
export function TwoFactorCard({ enabled, hasPassword }: { enabled: boolean; hasPassword: boolean }) {
  const t = useT();
  const [password, setPassword] = useState("");
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: string[] } | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const enable = useSubmit(authClient.twoFactor.enable);
  const confirm = useSubmit(authClient.twoFactor.verifyTotp);
  const disable = useSubmit(authClient.twoFactor.disable);
  const renew = useSubmit(authClient.twoFactor.generateBackupCodes);
  const credentials = hasPassword ? { password } : {};

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const started = await enable.run(credentials);
    if (started && "totpURI" in started) {
      setSetup({ totpURI: started.totpURI, backupCodes: started.backupCodes });
      setPassword("");
    }
  };
  const finish = async (event: FormEvent) => {
    event.preventDefault();
    if (!(await confirm.run({ code: code.trim() }))) return;
    await authClient.$store.session.refetch();
    setCodes(setup?.backupCodes ?? null);
    setSetup(null);
    setCode("");
    setNotice(t("twoFactor.on"));
  };
  const turnOff = async () => {
    if (!(await disable.run(credentials))) return;
    await authClient.$store.session.refetch();
    setPassword("");
    setCodes(null);
    setNotice(t("twoFactor.off"));
  };
  const newCodes = async () => {
    const renewed = await renew.run(credentials);
    if (renewed) {
      setCodes(renewed.backupCodes);
      setPassword("");
      setNotice(t("twoFactor.newCodes.notice"));
    }
  };
  const passwordField = hasPassword && (
    <Field
      label={t("field.password")}
      type="password"
      autoComplete="current-password"
      testId="two-factor-password"
      value={password}
      onChange={(e) => setPassword(e.target.value)}
    />
  );

  return (
    <Card title={t("twoFactor.title")} testId="two-factor-card">
      {notice && <Notice testId="two-factor-notice">{notice}</Notice>}
      {codes && <BackupCodes codes={codes} />}
      {setup ? (
        <form onSubmit={finish} noValidate aria-label={t("twoFactor.confirmForm")}>
          <p>{t("twoFactor.scan")}</p>
          <QrCode uri={setup.totpURI} />
          <p>
            {t("twoFactor.manualKey")}{" "}
            <code data-testid="two-factor-secret">{new URL(setup.totpURI).searchParams.get("secret")}</code>
          </p>
          <Field
            label={t("twoFactor.setupCode")}
            testId="two-factor-setup-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <FormError error={confirm.error} />
          <Button pending={confirm.pending} data-testid="two-factor-confirm">
            {t("twoFactor.turnOn")}
          </Button>
        </form>
      ) : enabled ? (
        <div>
          <p data-testid="two-factor-status">{t("twoFactor.on")}</p>
          {passwordField}
          <FormError error={enrolError(disable.error ?? renew.error)} />
          <Button
            type="button"
            variant="secondary"
            pending={renew.pending}
            onClick={() => void newCodes()}
            data-testid="two-factor-new-codes"
          >
            {t("twoFactor.newCodes")}
          </Button>
          <Button
            type="button"
            variant="danger"
            pending={disable.pending}
            onClick={() => void turnOff()}
            data-testid="two-factor-disable"
          >
            {t("twoFactor.turnOff")}
          </Button>
        </div>
      ) : (
        <form onSubmit={start} noValidate aria-label={t("twoFactor.setupForm")}>
          <p data-testid="two-factor-status">{t("twoFactor.offIntro")}</p>
          {passwordField}
          <FormError error={enrolError(enable.error)} />
          <Button pending={enable.pending} data-testid="two-factor-enable">
            {t("twoFactor.setUp")}
          </Button>
        </form>
      )}
    </Card>
  );
}
