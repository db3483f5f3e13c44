import { startRegistration } from "@simplewebauthn/browser";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { authClient, unwrap } from "../lib/client.js";
import { useFormatDate, useT } from "../lib/i18n.js";
import { enrolError, type HasCode } from "../lib/messages.js";
import { useSubmit } from "../lib/use-submit.js";
import { Button, Card, Field, FormError, Notice } from "./ui.js";

/** A browser's refusal (the person cancelled, or no authenticator) in the app's error shape. */
const cancelled = (error: unknown): HasCode =>
  error instanceof Error && error.name === "NotAllowedError"
    ? { code: "REGISTRATION_CANCELLED" }
    : { code: "REGISTRATION_FAILED", message: String(error) };

function PasskeyRow({
  passkey,
  onChanged,
}: {
  passkey: { id: string; name: string | null; createdAt: Date };
  onChanged: () => void;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name ?? "");
  const rename = useSubmit(authClient.passkey.updatePasskey);
  const remove = useSubmit(authClient.passkey.deletePasskey);
  const label = passkey.name || t("passkeys.default");
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await rename.run({ id: passkey.id, name })) {
      setEditing(false);
      onChanged();
    }
  };
  return (
    <li data-testid="passkey-row">
      {editing ? (
        <form onSubmit={save} aria-label={t("passkeys.renameLabel", { name: label })}>
          <Field label={t("field.name")} testId="passkey-name" value={name} onChange={(e) => setName(e.target.value)} />
          <Button pending={rename.pending} data-testid="passkey-rename-save">
            {t("common.save")}
          </Button>
        </form>
      ) : (
        <>
          <strong data-testid="passkey-label">{label}</strong>{" "}
          <span className="hint">{t("passkeys.added", { date: formatDate(passkey.createdAt) })}</span>{" "}
          <Button
            type="button"
            variant="secondary"
            onClick={() => setEditing(true)}
            aria-label={t("passkeys.renameLabel", { name: label })}
          >
            {t("passkeys.rename")}
          </Button>{" "}
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
        </>
      )}
      <FormError error={rename.error ?? remove.error} />
    </li>
  );
}

/**
 * Account security: the caller's passkeys, and "Add passkey" (the WebAuthn ceremony runs here, in the
 * browser). Adding one needs a recent proof of identity: when the server asks for it
 * (REAUTHENTICATION_REQUIRED), a user with a password confirms it here and the add is retried; one
 * without a password is told to sign in again (with a passkey or their provider).
 */
export function PasskeysCard({ hasPassword }: { hasPassword: boolean }) {
  const t = useT();
  const queryClient = useQueryClient();
  const passkeys = useQuery({ queryKey: ["passkeys"], queryFn: () => unwrap(authClient.passkey.listUserPasskeys()) });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<HasCode | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["passkeys"] });

  const add = async () => {
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      const options = await authClient.passkey.generateRegisterOptions();
      if (options.error?.code === "REAUTHENTICATION_REQUIRED" && hasPassword) return setConfirming(true);
      if (options.error) return setError(enrolError(options.error));
      let response: unknown;
      try {
        response = await startRegistration({ optionsJSON: options.data as never });
      } catch (failure) {
        return setError(cancelled(failure));
      }
      const saved = await authClient.passkey.verifyRegistration({ response: response as { id: string; type: string } });
      if (saved.error) return setError(enrolError(saved.error));
      setNotice(t("passkeys.added.notice"));
      refresh();
    } finally {
      setPending(false);
    }
  };

  const confirmAndAdd = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const proved = await authClient.verifyPassword({ password });
    if (proved.error) return setError(proved.error);
    setConfirming(false);
    setPassword("");
    await add();
  };

  return (
    <Card title={t("passkeys.title")} testId="passkeys-card">
      {notice && <Notice testId="passkey-notice">{notice}</Notice>}
      <p>{t("passkeys.intro")}</p>
      {passkeys.data && passkeys.data.length > 0 && (
        <ul className="passkeys">
          {passkeys.data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onChanged={refresh} />
          ))}
        </ul>
      )}
      {confirming ? (
        <form onSubmit={confirmAndAdd} noValidate aria-label={t("passkeys.confirm.form")}>
          <p>{t("passkeys.confirm.intro")}</p>
          <Field
            label={t("field.password")}
            type="password"
            autoComplete="current-password"
            testId="passkey-confirm-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <FormError error={error} />
          <Button pending={pending} data-testid="passkey-confirm">
            {t("passkeys.confirm.action")}
          </Button>
        </form>
      ) : (
        <>
          <FormError error={error} />
          <Button type="button" pending={pending} onClick={() => void add()} data-testid="passkey-add">
            {t("passkeys.add")}
          </Button>
        </>
      )}
    </Card>
  );
}
