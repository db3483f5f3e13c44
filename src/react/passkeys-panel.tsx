import { useState } from "react";
import { Actions, Button, ErrorMessage, Field, Form, Notice, Panel, useFrame } from "./form-parts.js";
import { enrolError, type HasCode } from "./messages.js";
import { useFormatDate, useLoad } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";
import { refusedUnverified, VerifyToEnrol } from "./verify-to-enrol.js";
import { createPasskeyCredential } from "./webauthn.js";

/** A browser's refusal (the person cancelled, or no authenticator) in the error shape. */
const cancelled = (error: unknown): HasCode =>
  error instanceof Error && error.name === "NotAllowedError"
    ? { code: "REGISTRATION_CANCELLED" }
    : { code: "REGISTRATION_FAILED", message: String(error) };

type Passkey = { id: string; name: string | null; createdAt: Date | string };

function PasskeyRow({ passkey, onChanged }: { passkey: Passkey; onChanged: () => void }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const formatDate = useFormatDate();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name ?? "");
  const rename = useCall(client.passkey.updatePasskey);
  const remove = useCall(client.passkey.deletePasskey);
  const label = passkey.name || t("passkeys.default");
  return (
    <li className="gh-list-row" data-testid="passkey-row">
      {editing ? (
        <Form
          label={t("passkeys.renameLabel", { name: label })}
          error={rename.error}
          onSubmit={async () => {
            if (!(await rename.run({ id: passkey.id, name }))) return;
            setEditing(false);
            onChanged();
          }}
        >
          <Field label={t("field.name")} testId="passkey-name" value={name} onChange={(e) => setName(e.target.value)} />
          <Actions>
            <Button variant="secondary" pending={rename.pending} data-testid="passkey-rename-save">
              {t("common.save")}
            </Button>
          </Actions>
        </Form>
      ) : (
        <>
          <div>
            <strong data-testid="passkey-label">{label}</strong>
            <p className="gh-hint">{t("passkeys.added", { date: formatDate(passkey.createdAt) })}</p>
          </div>
          <Actions>
            <Button
              type="button"
              variant="secondary"
              onClick={() => setEditing(true)}
              aria-label={t("passkeys.renameLabel", { name: label })}
            >
              {t("passkeys.rename")}
            </Button>
            <Button
              type="button"
              variant="danger"
              pending={remove.pending}
              aria-label={t("passkeys.deleteLabel", { name: label })}
              data-testid="passkey-delete"
              onClick={async () => {
                if (await remove.run({ id: passkey.id })) onChanged();
              }}
            >
              {t("common.delete")}
            </Button>
          </Actions>
        </>
      )}
      <ErrorMessage error={rename.error ?? remove.error} />
    </li>
  );
}

/**
 * The caller's passkeys and "Add passkey" (the WebAuthn ceremony runs in the browser). Adding needs
 * a verified address (until then the panel says so, with the link to send again) and a recent proof
 * of identity: when the server asks (REAUTHENTICATION_REQUIRED), a user with a password confirms it
 * here and the add is retried.
 */
export function PasskeysPanel({
  hasPassword,
  email,
  emailVerified,
  verifiedHref,
}: {
  hasPassword: boolean;
  email: string;
  emailVerified: boolean;
  verifiedHref: string;
}) {
  const { t } = useFrame();
  const client = useAuthClient();
  const passkeys = useLoad(() => client.passkey.listUserPasskeys());
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<HasCode | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState("");

  const add = async () => {
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      const options = await client.passkey.generateRegisterOptions();
      if (options.error?.code === "REAUTHENTICATION_REQUIRED" && hasPassword) return setConfirming(true);
      if (options.error) return setError(enrolError(options.error));
      let response: Awaited<ReturnType<typeof createPasskeyCredential>>;
      try {
        response = await createPasskeyCredential(options.data as never);
      } catch (failure) {
        return setError(cancelled(failure));
      }
      const saved = await client.passkey.verifyRegistration({ response });
      if (saved.error) return setError(enrolError(saved.error));
      setNotice(t("passkeys.added.notice"));
      passkeys.reload();
    } finally {
      setPending(false);
    }
  };
  const confirmAndAdd = async () => {
    setError(null);
    const proved = await client.verifyPassword({ password });
    if (proved.error) return setError(proved.error);
    setConfirming(false);
    setPassword("");
    await add();
  };

  const list = (passkeys.data ?? []) as Passkey[];
  const mustVerify = !emailVerified || refusedUnverified(error);
  return (
    <Panel title={t("passkeys.title")} testId="passkeys-card">
      {notice && <Notice testId="passkey-notice">{notice}</Notice>}
      <p>{t("passkeys.intro")}</p>
      {list.length > 0 && (
        <ul className="gh-list">
          {list.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onChanged={passkeys.reload} />
          ))}
        </ul>
      )}
      {mustVerify ? (
        <VerifyToEnrol factor="passkey" email={email} verifiedHref={verifiedHref} />
      ) : confirming ? (
        <Form label={t("passkeys.confirm.form")} error={error} onSubmit={() => void confirmAndAdd()}>
          <p>{t("passkeys.confirm.intro")}</p>
          <Field
            label={t("field.password")}
            type="password"
            autoComplete="current-password"
            testId="passkey-confirm-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <ErrorMessage error={error} />
          <Actions>
            <Button variant="secondary" pending={pending} data-testid="passkey-confirm">
              {t("passkeys.confirm.action")}
            </Button>
          </Actions>
        </Form>
      ) : (
        <>
          <ErrorMessage error={error} />
          <Actions>
            <Button
              type="button"
              variant="secondary"
              pending={pending}
              onClick={() => void add()}
              data-testid="passkey-add"
            >
              {t("passkeys.add")}
            </Button>
          </Actions>
        </>
      )}
    </Panel>
  );
}
