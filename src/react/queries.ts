import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Result } from "../client/index.js";
import { useAuthClient, useListOrganizations, useSession } from "./provider.js";

/**
 * Runs `call` whenever `key` changes (null: nothing to ask); the last answer wins. `null` while
 * loading or on error.
 */
function useCall<T>(key: string | null, call: () => Promise<Result<T>>): T | null {
  const [data, setData] = useState<T | null>(null);
  const latest = useRef(call);
  latest.current = call;
  useEffect(() => {
    if (key === null) return setData(null);
    let current = true;
    void latest.current().then(({ data }) => current && setData(data ?? null));
    return () => {
      current = false;
    };
  }, [key]);
  return data;
}

/**
 * Whether the signed-in user may use the administration area, by the server's own answer
 * (`has-permission {user: [list]}`): an admin role, a configured role, or `admin.adminUserIds`.
 * False while asking, when signed out and when the admin feature is off.
 *
 * @example
 * function AdminLink() {
 *   return useIsAdmin() ? <a href="/admin">Admin</a> : null;
 * }
 */
export function useIsAdmin(): boolean {
  const client = useAuthClient();
  const userId = useSession().data?.user.id;
  const answer = useCall(userId ?? null, () => client.admin.hasPermission({ permissions: { user: ["list"] } }));
  return answer?.success === true;
}

let invitationsVersion = 0;
const invitationListeners = new Set<() => void>();
const subscribeInvitations = (listener: () => void) => {
  invitationListeners.add(listener);
  return () => void invitationListeners.delete(listener);
};

/**
 * Asks every useUserInvitations() again (after the user answered an invitation).
 *
 * @example
 * await client.organization.acceptInvitation({ invitationId });
 * refreshUserInvitations(); // the switcher's badge and the lists drop it
 */
export function refreshUserInvitations(): void {
  invitationsVersion++;
  for (const listener of invitationListeners) listener();
}

/**
 * The signed-in user's pending invitations (empty until their email is verified: the server lists
 * them only then). Read again when the user or their organizations change (an answer moves one).
 *
 * @example
 * function Invitations() {
 *   const invitations = useUserInvitations();
 *   return <ul>{invitations.map((invitation) => <li key={invitation.id}>{invitation.organizationName}</li>)}</ul>;
 * }
 */
export function useUserInvitations() {
  const client = useAuthClient();
  const user = useSession().data?.user;
  const organizations = useListOrganizations().data;
  const eligible = Boolean(user?.emailVerified && !user.isAnonymous);
  // Accepting or leaving changes the organizations: ask again then.
  const version = useSyncExternalStore(
    subscribeInvitations,
    () => invitationsVersion,
    () => invitationsVersion,
  );
  const key = eligible ? `${user?.id} ${version} ${(organizations ?? []).map((o) => o.id).join(",")}` : null;
  const invitations = useCall(key, () => client.organization.listUserInvitations());
  return (invitations ?? []).filter((invitation) => invitation.status === "pending");
}
