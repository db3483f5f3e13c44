import type { User } from "../../contract/models.js";
import { Avatar } from "../../react/index.js";
import { useT } from "../lib/i18n.js";
import { Card } from "./ui.js";

/** The user's picture, large (initials when there is none or it does not load). */
export function ProfilePictureCard({ user }: { user: User }) {
  const t = useT();
  return (
    <Card title={t("details.profile.picture")} testId="profile-picture-card">
      <div className="profile-picture">
        <Avatar name={user.name || user.email} image={user.image} size="lg" />
        {!user.image && <p className="hint">{t("details.profile.pictureNone")}</p>}
      </div>
    </Card>
  );
}
