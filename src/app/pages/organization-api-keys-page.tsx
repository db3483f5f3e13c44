import { ApiKeys, useActiveOrganization } from "../../react/index.js";
import { Loading } from "../components/ui.js";
import { usePageTitle } from "../lib/i18n.js";

/**
 * The active organization's API keys and machine clients (docs/api-keys.md): the one list the
 * <ApiKeys/> component draws, as an application would add it. The server decides who may see and
 * change what (owners, or roles granted apiKey permissions; machine clients for owners).
 */
export function OrganizationApiKeysPage() {
  const active = useActiveOrganization();
  usePageTitle("apiKeys.title");
  if (!active.data) return <Loading />;
  return <ApiKeys key={active.data.id} organizationId={active.data.id} />;
}
