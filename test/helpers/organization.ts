import type { TestBrowser } from "./browser.js";
import { signUp, type TestServer } from "./server.js";

let counter = 0;
/** A slug no other test in the file uses. */
export const uniqueSlug = (prefix = "org") => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/**
 * Marks the user's address verified, as following the mailed link would (with
 * organization.requireVerifiedInviter, only such users may invite).
 */
export async function verifyEmail(server: TestServer, userId: string): Promise<void> {
  await server.auth.database.db.updateTable("user").set({ emailVerified: true }).where("id", "=", userId).execute();
}

/** Signs up a verified owner and creates an organization through the API (it becomes their active one). */
export async function createOrganization(
  server: TestServer,
  input: { name?: string; slug?: string; owner?: Awaited<ReturnType<typeof signUp>>; metadata?: object } = {},
) {
  const owner = input.owner ?? (await signUp(server, { name: "Owner" }));
  await verifyEmail(server, owner.user.id);
  const slug = input.slug ?? uniqueSlug();
  const res = await owner.browser.post("/organization/create", {
    name: input.name ?? `Org ${slug}`,
    slug,
    ...(input.metadata ? { metadata: input.metadata } : {}),
  });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { owner, organization: res.body, organizationId: res.body.id as string, slug };
}

/** A new verified user who is a member of the organization with `role`, with it set active in their browser. */
export async function joinAs(
  server: TestServer,
  organizationId: string,
  role: string,
  name = role,
): Promise<{ browser: TestBrowser; user: any; email: string; memberId: string }> {
  const person = await signUp(server, { name });
  await verifyEmail(server, person.user.id);
  const member = await server.auth.api.addMember({ body: { userId: person.user.id, role, organizationId } });
  const res = await person.browser.post("/organization/set-active", { organizationId });
  if (res.status !== 200) throw new Error(`set-active failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { browser: person.browser, user: person.user, email: person.email, memberId: member.id };
}
