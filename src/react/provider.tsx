import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from "react";
import type { AuthClient, QueryState, QueryStore } from "../client/index.js";
import { rememberActiveOrganization } from "./remember-organization.js";

const AuthClientContext = createContext<AuthClient | null>(null);

/**
 * Makes a client available to the hooks. On mount it starts every store at once (session, active
 * organization, organization list, active member): one round of parallel requests, no waterfall of
 * "session first, then the organization". It also remembers the active organization across
 * sign-ins (see remember-organization.ts).
 *
 * @example
 * const client = createAuthClient({ baseURL: "https://auth.example.com" });
 * createRoot(container).render(
 *   <AuthProvider client={client}>
 *     <App />
 *   </AuthProvider>,
 * );
 */
export function AuthProvider({
  client,
  children,
  rememberOrganization = true,
}: {
  client: AuthClient;
  children: ReactNode;
  /** Make the user's last active organization active again on each new session (in this browser). */
  rememberOrganization?: boolean;
}) {
  useEffect(() => {
    const stop = rememberOrganization ? rememberActiveOrganization(client) : () => {};
    for (const store of Object.values(client.$store)) void store.start();
    return stop;
  }, [client, rememberOrganization]);
  return <AuthClientContext.Provider value={client}>{children}</AuthClientContext.Provider>;
}

/**
 * The client the AuthProvider above holds, for calls of one's own; throws outside an AuthProvider.
 *
 * @example
 * function SignOut() {
 *   const client = useAuthClient();
 *   return <button onClick={() => client.signOut()}>Sign out</button>;
 * }
 */
export function useAuthClient(): AuthClient {
  const client = useContext(AuthClientContext);
  if (!client) throw new Error("useAuthClient: wrap the application in <AuthProvider client={...}>");
  return client;
}

export type StoreResult<T> = QueryState<T> & { refetch: () => Promise<void> };

function useStore<T>(pick: (client: AuthClient) => QueryStore<T>): StoreResult<T> {
  const store = pick(useAuthClient());
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { ...state, refetch: () => store.refetch() };
}

/**
 * `{data: {session, user} | null, error, isPending, isRefetching, refetch}`.
 *
 * @example
 * function Header() {
 *   const { data, isPending } = useSession();
 *   if (isPending) return null;
 *   return data ? <span>{data.user.name}</span> : <a href="/sign-in">Sign in</a>;
 * }
 */
export const useSession = () => useStore((client) => client.$store.session);
/**
 * The active organization with members, invitations and teams, or null.
 *
 * @example
 * function OrganizationName() {
 *   const { data: organization } = useActiveOrganization();
 *   return <h1>{organization?.name ?? "No organization"} ({organization?.members.length ?? 0} members)</h1>;
 * }
 */
export const useActiveOrganization = () => useStore((client) => client.$store.activeOrganization);
/**
 * The organizations the signed-in user is a member of (empty when signed out).
 *
 * @example
 * function Organizations() {
 *   const { data: organizations } = useListOrganizations();
 *   return <ul>{organizations?.map((organization) => <li key={organization.id}>{organization.name}</li>)}</ul>;
 * }
 */
export const useListOrganizations = () => useStore((client) => client.$store.listOrganizations);
/**
 * The caller's member row in the active organization (its `role` drives what the UI shows).
 *
 * @example
 * function InviteButton() {
 *   const { data: member } = useActiveMember();
 *   return can(member?.role, "invitation", "create") ? <a href="/organization/invite">Invite</a> : null;
 * }
 */
export const useActiveMember = () => useStore((client) => client.$store.activeMember);
