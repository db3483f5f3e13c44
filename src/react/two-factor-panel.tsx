import { type ReactNode, useState } from "react";
import { Actions, Button, ErrorMessage, Field, Form, Notice, Panel, useFrame } from "./form-parts.js";
import { enrolError } from "./messages.js";
import { CopyButton } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";
import { refusedUnverified, VerifyToEnrol } from "./verify-to-enrol.js";

function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useFrame();
  const text = `${codes.join("\n")}\n`;
  return (
    <div data-testid="backup-codes">
      <p>{t("twoFactor.backupCodes.intro")}</p>
      <ul className="gh-codes">
        {codes.map((code) => (
          <li key={code} className="gh-secret">
            {code}
          </li>
        ))}
      </ul>
      <Actions>
        <CopyButton text={text} testId="backup-codes-copy" label={t("profile.copyCodes")} />
        <a
          className="gh-button gh-secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="backup-codes.txt"
          data-testid="backup-codes-download"
        >
          {t("twoFactor.backupCodes.download")}
        </a>
      </Actions>
    </div>
  );
}

export interface TwoFactorPanelProps {
  enabled: boolean;
  hasPassword: boolean;
  /** Turning it on waits for a verified address: until then the panel says so, with the link to send again. */
  email: string;
  emailVerified: boolean;
  verifiedHref: string;
  /** How many unused backup codes the account has, when the server says (GET /security-activity). */
  backupCodesRemaining?: number | null;
  /** Draws the setup's QR code (the package has no QR encoder); without it, the key and link only. */
  qrCode?: (uri: string) => ReactNode;
  /** After turning on or off and after new codes (the count changed). */
  onChanged?: () => void;
}

/** TOTP two-factor: turn on (scan, confirm with a code, keep the backup codes), off, or renew the codes. */
export function TwoFactorPanel({
  enabled,
  hasPassword,
  email,
  emailVerified,
  verifiedHref,
  backupCodesRemaining,
  qrCode,
  onChanged,
}: TwoFactorPanelProps) {
  const { t } = useFrame();
  const client = useAuthClient();
  const [password, setPassword] = useState("");
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: string[] } | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const enable = useCall(client.twoFactor.enable);
  const confirm = useCall(client.twoFactor.verifyTotp);
  const disable = useCall(client.twoFactor.disable);
  const renew = useCall(client.twoFactor.generateBackupCodes);
  const credentials = hasPassword ? { password } : {};

  const start = async () => {
    setNotice(null);
    const started = await enable.run(credentials);
    if (started && "totpURI" in started) {
      setSetup({ totpURI: started.totpURI, backupCodes: started.backupCodes });
      setPassword("");
    }
  };
  const finish = async () => {
    if (!(await confirm.run({ code: code.trim() }))) return;
    await client.$store.session.refetch();
    setCodes(setup?.backupCodes ?? null);
    setSetup(null);
    setCode("");
    onChanged?.();
  };
  const turnOff = async () => {
    if (!(await disable.run(credentials))) return;
    await client.$store.session.refetch();
    setPassword("");
    setCodes(null);
    onChanged?.();
  };
  const newCodes = async () => {
    const renewed = await renew.run(credentials);
    if (!renewed) return;
    setCodes(renewed.backupCodes);
    setPassword("");
    setNotice(t("twoFactor.newCodes.notice"));
    onChanged?.();
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
  const secret = setup ? new URL(setup.totpURI).searchParams.get("secret") : null;

  return (
    <Panel title={t("twoFactor.title")} testId="two-factor-card">
      {notice && <Notice testId="two-factor-notice">{notice}</Notice>}
      {/* The state is said once, here; turning it on or off changes this line (and it is announced). */}
      {!setup && (
        <p data-testid="two-factor-status" role="status">
          {enabled ? t("twoFactor.on") : t("twoFactor.offIntro")}
        </p>
      )}
      {codes && <BackupCodes codes={codes} />}
      {setup ? (
        <Form label={t("twoFactor.confirmForm")} error={confirm.error} onSubmit={() => void finish()}>
          <p>{t("twoFactor.scan")}</p>
          {qrCode?.(setup.totpURI)}
          <p>{t("twoFactor.manualKey")}</p>
          <div className="gh-row">
            <span className="gh-secret" data-testid="two-factor-secret">
              {secret}
            </span>
            <Actions>
              <CopyButton text={secret ?? ""} testId="two-factor-secret-copy" label={t("profile.copyKey")} />
            </Actions>
          </div>
          <Field
            label={t("twoFactor.setupCode")}
            testId="two-factor-setup-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <ErrorMessage error={confirm.error} />
          <Actions>
            <Button variant="secondary" pending={confirm.pending} data-testid="two-factor-confirm">
              {t("twoFactor.turnOn")}
            </Button>
          </Actions>
        </Form>
      ) : enabled ? (
        <div className="gh-form">
          {typeof backupCodesRemaining === "number" && !codes && (
            <p data-testid="backup-codes-remaining">
              {backupCodesRemaining === 0
                ? t("profile.backupCodes.none")
                : t("profile.backupCodes.remaining", { count: backupCodesRemaining })}
            </p>
          )}
          {passwordField}
          <ErrorMessage error={enrolError(disable.error ?? renew.error)} />
          <Actions>
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
          </Actions>
        </div>
      ) : !emailVerified || refusedUnverified(enable.error) ? (
        <VerifyToEnrol factor="twoFactor" email={email} verifiedHref={verifiedHref} />
      ) : (
        <Form label={t("twoFactor.setupForm")} error={enable.error} onSubmit={() => void start()}>
          {passwordField}
          <ErrorMessage error={enrolError(enable.error)} />
          <Actions>
            <Button variant="secondary" pending={enable.pending} data-testid="two-factor-enable">
              {t("twoFactor.setUp")}
            </Button>
          </Actions>
        </Form>
      )}
    </Panel>
  );
}
