import { Button } from "./ui.js";

/** A sign-in method's name for people: "Email and password", or the provider id capitalised. */
export const providerLabel = (id: string) =>
  id === "credential" ? "Email and password" : id.charAt(0).toUpperCase() + id.slice(1);

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
          Continue with {providerLabel(provider)}
        </Button>
      ))}
    </>
  );
}
