import { useMemo, useState } from "react";
import type { DeviceRequest } from "../client/types.js";
import { Actions, Button, ComponentRoot, ErrorMessage, Field, Form, Notice } from "./form-parts.js";
import { type Appearance, componentTranslator, type Labels, type Localization } from "./localization.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { ScopeList } from "./oauth-scopes.js";
import { useAuthClient, useSession } from "./provider.js";
import { useCall } from "./use-call.js";

export interface DeviceAuthorizationProps {
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
  /** The code to start with (default: the page's `?user_code=`, from verification_uri_complete). */
  userCode?: string;
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

function initialCode(given: string | undefined): string {
  if (given !== undefined) return given;
  return typeof window === "undefined" ? "" : (new URLSearchParams(window.location.search).get("user_code") ?? "");
}

/**
 * The device page (RFC 8628's verification_uri; the provider's `deviceVerificationPage`): the
 * signed-in user types the code a TV or a command line shows (any case, dash or not), sees which
 * application asks for what, and allows or denies. The device's next poll gets the answer.
 *
 * @example
 * // at the route the provider's deviceVerificationPage names (default /device)
 * <DeviceAuthorization localization="de" />
 */
export function DeviceAuthorization({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  userCode,
  headingLevel = 1,
}: DeviceAuthorizationProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const session = useSession();
  const [code, setCode] = useState(() => initialCode(userCode));
  const [request, setRequest] = useState<DeviceRequest | null>(null);
  const [outcome, setOutcome] = useState<"approved" | "denied" | null>(null);
  const lookUp = useCall(client.device);
  const approve = useCall(client.device.approve);
  const deny = useCall(client.device.deny);
  const pending = approve.pending || deny.pending;

  const restart = () => {
    setRequest(null);
    setOutcome(null);
    setCode("");
  };
  const answer = async (allow: boolean) => {
    if (!request) return;
    const done = await (allow ? approve : deny).run({ userCode: request.user_code });
    if (done) setOutcome(allow ? "approved" : "denied");
  };

  let body = null;
  if (outcome && request) {
    body = (
      <>
        <Notice testId={`device-${outcome}`} takeFocus>
          {t(outcome === "approved" ? "deviceAuth.approved" : "deviceAuth.denied", { client: request.client_name })}
        </Notice>
        <Button type="button" variant="secondary" data-testid="device-another" onClick={restart}>
          {t("deviceAuth.another")}
        </Button>
      </>
    );
  } else if (request) {
    body =
      request.status !== "pending" ? (
        <>
          <Notice testId="device-answered">{t("deviceAuth.answered")}</Notice>
          <Button type="button" variant="secondary" data-testid="device-another" onClick={restart}>
            {t("deviceAuth.another")}
          </Button>
        </>
      ) : (
        <>
          <p data-testid="device-client">
            {t("deviceAuth.asks", { client: request.client_name, email: session.data?.user.email ?? "" })}
          </p>
          <ScopeList scopes={request.scope.split(" ")} testId="device-scopes" />
          <ErrorMessage error={approve.error ?? deny.error} testId="device-error" />
          <Actions>
            <Button
              type="button"
              pending={approve.pending}
              disabled={pending}
              data-testid="device-allow"
              onClick={() => void answer(true)}
            >
              {t("deviceAuth.allow")}
            </Button>
            <Button
              type="button"
              variant="secondary"
              pending={deny.pending}
              disabled={pending}
              data-testid="device-deny"
              onClick={() => void answer(false)}
            >
              {t("deviceAuth.deny")}
            </Button>
          </Actions>
        </>
      );
  } else {
    body = (
      <Form
        label={t("deviceAuth.title")}
        error={lookUp.error}
        onSubmit={async () => {
          const typed = code.trim();
          if (!typed) return;
          const found = await lookUp.run({ query: { user_code: typed } });
          if (found) setRequest(found);
        }}
      >
        <p>{t("deviceAuth.intro")}</p>
        <Field
          label={t("deviceAuth.code")}
          testId="device-code"
          value={code}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          required
          onChange={(e) => setCode(e.target.value)}
        />
        <ErrorMessage error={lookUp.error} testId="device-error" />
        <Button pending={lookUp.pending} data-testid="device-submit">
          {t("deviceAuth.lookUp")}
        </Button>
      </Form>
    );
  }
  return (
    <ComponentRoot
      t={t}
      navigate={navigate}
      locale={localization}
      appearance={appearance}
      title={t("deviceAuth.title")}
      testId="gh-device-authorization"
      headingLevel={headingLevel}
    >
      {body}
    </ComponentRoot>
  );
}
