import { useState } from "react";
import type { User } from "../contract/models.js";
import { Avatar } from "./avatar.js";
import { Button, ErrorMessage, Field, type FieldMessage, Form, Notice, Panel, useFrame } from "./form-parts.js";
import { isPictureUrl } from "./picture-url.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

/** UserProfile's first section: the picture, name and picture address, and whether the email is verified. */
export function ProfileSection({ user, verifiedHref }: { user: User; verifiedHref: string }) {
  const { t } = useFrame();
  const client = useAuthClient();
  const update = useCall(client.updateUser);
  const resend = useCall(client.sendVerificationEmail);
  const [name, setName] = useState(user.name);
  const [image, setImage] = useState(user.image ?? "");
  const [errors, setErrors] = useState<{ name?: FieldMessage; image?: FieldMessage }>({});
  const [saved, setSaved] = useState(false);
  const [resent, setResent] = useState(false);

  const save = async () => {
    const found: typeof errors = {};
    if (!name.trim()) found.name = { key: "validation.name" };
    // A picture set elsewhere (an app's data: URL) may stay; a new one must be https.
    const picture = image.trim();
    if (picture && picture !== (user.image ?? "") && !isPictureUrl(picture)) {
      found.image = { key: "details.profile.imageInvalid" };
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    if (await update.run({ name: name.trim(), image: picture || null })) {
      await client.$store.session.refetch();
      setSaved(true);
    }
  };

  return (
    <>
      <Panel title={t("details.profile.picture")} testId="profile-picture-card">
        <div className="gh-row">
          <Avatar name={user.name || user.email} image={user.image} size="lg" />
          {!user.image && <p className="gh-hint">{t("details.profile.pictureNone")}</p>}
        </div>
      </Panel>
      <Panel title={t("profile.title")} testId="profile-card">
        {saved && <Notice testId="profile-saved">{t("profile.saved")}</Notice>}
        <Form
          label={t("profile.title")}
          error={update.error}
          onSubmit={() => void save()}
          onChange={() => setSaved(false)}
        >
          <Field
            label={t("field.name")}
            testId="profile-name"
            autoComplete="name"
            value={name}
            error={errors.name}
            onChange={(e) => setName(e.target.value)}
          />
          <Field
            label={t("field.pictureUrl")}
            testId="profile-image"
            type="url"
            value={image}
            hint={t("details.profile.imageHint")}
            error={errors.image}
            onChange={(e) => setImage(e.target.value)}
          />
          <ErrorMessage error={update.error} />
          <div className="gh-actions">
            <Button pending={update.pending} data-testid="profile-submit">
              {t("profile.submit")}
            </Button>
          </div>
        </Form>
      </Panel>
      {!user.isAnonymous && (
        <Panel title={t("verification.title")}>
          {user.emailVerified ? (
            <p data-testid="email-verified">{t("verification.verified", { email: user.email })}</p>
          ) : (
            <>
              <p data-testid="email-unverified">{t("verification.unverified", { email: user.email })}</p>
              {resent ? (
                <Notice>{t("verification.sent")}</Notice>
              ) : (
                <div className="gh-actions">
                  <Button
                    type="button"
                    variant="secondary"
                    pending={resend.pending}
                    data-testid="resend-verification"
                    onClick={async () =>
                      setResent(Boolean(await resend.run({ email: user.email, callbackURL: verifiedHref })))
                    }
                  >
                    {t("verification.send")}
                  </Button>
                </div>
              )}
              <ErrorMessage error={resend.error} />
            </>
          )}
        </Panel>
      )}
    </>
  );
}
