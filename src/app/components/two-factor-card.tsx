import { type FormEvent, useState } from "react";
import { renderSVG } from "uqr";
import { authClient } from "../lib/client.js";
import { useSubmit } from "../lib/use-submit.js";
import { Button, Card, Field, FormError, Notice } from "./ui.js";

/** The QR code is drawn here, in the browser: the secret never goes to another service. */
function QrCode({ uri }: { uri: string }) {
  const src = `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(uri, { border: 2 }))}`;
  return (
    <img className="qr-code" src={src} width={192} height={192} alt="QR code to scan with your authenticator app" />
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(`${codes.join("\n")}\n`)}`;
  return (
    <div data-testid="backup-codes">
      <p>Save these backup codes somewhere safe. Each works once if you lose your phone; they are not shown again.</p>
      <ul className="backup-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <a href={file} download="backup-codes.txt" data-testid="backup-codes-download">
        Download the codes
      </a>
    </div>
  );
}

/** Account security: turn TOTP two-factor on (scan, confirm with a code, keep the backup codes), off, or renew the codes. */
export function TwoFactorCard({ enabled, hasPassword }: { enabled: boolean; hasPassword: boolean }) {
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
    setNotice("Two-factor authentication is on.");
  };
  const turnOff = async () => {
    if (!(await disable.run(credentials))) return;
    await authClient.$store.session.refetch();
    setPassword("");
    setCodes(null);
    setNotice("Two-factor authentication is off.");
  };
  const newCodes = async () => {
    const renewed = await renew.run(credentials);
    if (renewed) {
      setCodes(renewed.backupCodes);
      setPassword("");
      setNotice("New backup codes: the old ones no longer work.");
    }
  };
  const passwordField = hasPassword && (
    <Field
      label="Password"
      type="password"
      autoComplete="current-password"
      testId="two-factor-password"
      value={password}
      onChange={(e) => setPassword(e.target.value)}
    />
  );

  return (
    <Card title="Two-factor authentication" testId="two-factor-card">
      {notice && <Notice testId="two-factor-notice">{notice}</Notice>}
      {codes && <BackupCodes codes={codes} />}
      {setup ? (
        <form onSubmit={finish} noValidate aria-label="Confirm two-factor authentication">
          <p>Scan this code with an authenticator app, then enter the 6 digits it shows.</p>
          <QrCode uri={setup.totpURI} />
          <p>
            Or enter this key by hand:{" "}
            <code data-testid="two-factor-secret">{new URL(setup.totpURI).searchParams.get("secret")}</code>
          </p>
          <Field
            label="Code from the app"
            testId="two-factor-setup-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <FormError error={confirm.error} />
          <Button pending={confirm.pending} data-testid="two-factor-confirm">
            Turn on
          </Button>
        </form>
      ) : enabled ? (
        <div>
          <p data-testid="two-factor-status">Two-factor authentication is on.</p>
          {passwordField}
          <FormError error={disable.error ?? renew.error} />
          <Button
            type="button"
            variant="secondary"
            pending={renew.pending}
            onClick={() => void newCodes()}
            data-testid="two-factor-new-codes"
          >
            New backup codes
          </Button>
          <Button
            type="button"
            variant="danger"
            pending={disable.pending}
            onClick={() => void turnOff()}
            data-testid="two-factor-disable"
          >
            Turn off
          </Button>
        </div>
      ) : (
        <form onSubmit={start} noValidate aria-label="Set up two-factor authentication">
          <p data-testid="two-factor-status">
            Two-factor authentication is off. With it on, signing in also asks for a code from an app on your phone.
          </p>
          {passwordField}
          <FormError error={enable.error} />
          <Button pending={enable.pending} data-testid="two-factor-enable">
            Set up
          </Button>
        </form>
      )}
    </Card>
  );
}
