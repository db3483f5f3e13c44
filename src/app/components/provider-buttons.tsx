import type { Translate } from "../../i18n/index.js";
import { useT } from "../lib/i18n.js";
import { Button } from "./ui.js";

/** A sign-in method's name for people: "Email and password", or the provider id capitalised. */
export const providerLabel = (id: string, t: Translate) =>
  id === "credential" ? t("provider.credential") : id.charAt(0).toUpperCase() + id.slice(1);

/** One "Continue with …" button per configured provider. */
export function ProviderButtons({
  providers,
  pending,
  testIdPrefix,
  onChoose,
}: {
  providers: string[];
  pending: boolean;
  testIdPrefix: string;
  onChoose: (provider: string) => void;
}) {
  const t = useT();
  return (
    <>
      {providers.map((provider) => (
        <Button
          key={provider}
          type="button"
          variant="secondary"
          pending={pending}
          data-testid={`${testIdPrefix}-${provider}`}
          onClick={() => onChoose(provider)}
        >
          {t("provider.continueWith", { provider: providerLabel(provider, t) })}
        </Button>
      ))}
    </>
  );
}
