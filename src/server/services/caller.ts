import type { SessionWithUser } from "../../contract/models.js";
import type { SetupScope } from "../../contract/setup-links.js";
import { AuthError } from "../errors.js";

/**
 * Who acts, as every service that more than one kind of caller reaches receives it, under one name,
 * `caller`: a person's session (an API key on a route that accepts keys acts as one, and its session
 * says so) or the holder of a setup link. The directory's SCIM connection is the caller of the SCIM
 * protocol services, which nobody else reaches. A server call without headers (`auth.api`) is
 * `null` where a service allows it.
 */
export type Caller = SessionWithUser | SetupLinkCaller;

/** The holder of a live setup link, as services see the caller: one organization, its scopes, nothing else. */
export interface SetupLinkCaller {
  readonly kind: "setup-link";
  readonly id: string;
  readonly organizationId: string;
  readonly scopes: readonly SetupScope[];
  readonly label: string | null;
  readonly expiresAt: Date;
}

export function isSetupLinkCaller(caller: unknown): caller is SetupLinkCaller {
  return (caller as { kind?: unknown } | null)?.kind === "setup-link";
}

/** The organization a setup link acts in: its own; naming another is refused. */
export function setupLinkOrganization(link: SetupLinkCaller, given: string | undefined): string {
  if (given !== undefined && given !== link.organizationId) throw new AuthError("SETUP_LINK_OTHER_ORGANIZATION");
  return link.organizationId;
}
