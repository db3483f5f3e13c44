/**
 * auth.api's types, checked by tsc (npx tsc --noEmit): the editor completes every call and field,
 * and the wrong uses below must not compile (an unused @ts-expect-error fails the check).
 */
import type { ServerApi } from "../src/server/api.js";

declare const api: ServerApi;
export async function typeChecks() {
  // @ts-expect-error headers are required
  void api.getSession({});
  // @ts-expect-error a session call needs headers
  void api.listSessions({});
  // @ts-expect-error body fields are typed
  void api.signInEmail({ body: { email: "a@example.com" } });
  // @ts-expect-error the flat shape is not the call's
  void api.signInEmail({ email: "a@example.com", password: "x" });
  const r = await api.signInEmail({ body: { email: "a", password: "b" } });
  if (!("twoFactorRedirect" in r)) r.user.createdAt satisfies Date;
  const { headers, response } = await api.signUpEmail({
    body: { name: "a", email: "b", password: "c" },
    returnHeaders: true,
  });
  headers satisfies Headers;
  response.token satisfies string | null;
  (await api.signOut({ headers: {}, asResponse: true })) satisfies Response;
  (await api.listMembers({ headers: {}, query: { organizationId: "x", limit: 5 } })).members[0]?.createdAt satisfies
    | Date
    | undefined;
  await api.createOrganization({ body: { name: "a", slug: "b", userId: "u" } });
  await api.getSession({ headers: {}, query: { disableCookieCache: true } });
  (await api.requestPasswordResetCallback({ params: { token: "t" }, query: { callbackURL: "/x" } })) satisfies Response;
  // @ts-expect-error params are required
  await api.requestPasswordResetCallback({ query: { callbackURL: "/x" } });
  await api.addMember({ body: { userId: "u", role: "member", organizationId: "o" } });
  await api.setPassword({ body: { userId: "u", newPassword: "p" } });
  await api.ok();
}
