import type { AuthClient } from "../client/index.js";

/**
 * A new session starts with no active organization (the server copies none over, as better-auth
 * does). The browser keeps the last one per user and sets it once on each new session it sees, so
 * the wire stays as it is (docs/wire-decisions.md). A refusal (no longer a member) forgets it.
 */
const keyFor = (userId: string) => `gatehouse.activeOrganization.${userId}`;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Starts watching the client's stores; returns the function that stops. */
export function rememberActiveOrganization(client: AuthClient): () => void {
  const store = storage();
  if (!store) return () => {};
  const { session, activeOrganization } = client.$store;
  const tried = new Set<string>();
  const onSession = () => {
    const { data, isPending } = session.getSnapshot();
    if (isPending || !data?.session) return;
    const key = keyFor(data.user.id);
    if (data.session.activeOrganizationId) {
      store.setItem(key, data.session.activeOrganizationId);
      return;
    }
    // Only the first answer for a session: later ones may be older than a choice made since.
    if (tried.has(data.session.id)) return;
    tried.add(data.session.id);
    const last = store.getItem(key);
    if (!last) return;
    void client.organization.setActive({ organizationId: last }).then(async ({ error }) => {
      if (error) {
        store.removeItem(key);
        return;
      }
      await Promise.all([activeOrganization.refetch(), client.$store.activeMember.refetch(), session.refetch()]);
    });
  };
  const onOrganization = () => {
    const user = session.getSnapshot().data?.user;
    const organization = activeOrganization.getSnapshot().data;
    if (user && organization) store.setItem(keyFor(user.id), organization.id);
  };
  const stops = [session.onChange(onSession), activeOrganization.onChange(onOrganization)];
  onSession();
  return () => {
    for (const stop of stops) stop();
  };
}
