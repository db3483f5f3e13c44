import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import type { TestDnsServer } from "../../test/helpers/dns.js";
import { apiFromPage, signUpInBrowser } from "./browser.js";
import type { ServiceAndBrowser } from "./setup.js";

/**
 * An owner signed up in the browser, on a page of their own, with a new organization: `name` (a
 * first name) makes the address, `organization` the organization's name and slug.
 */
export async function ownerWithOrganizationInBrowser(
  e2e: ServiceAndBrowser,
  name: string,
  organization: string,
): Promise<{ owner: Page; organizationId: string }> {
  const owner = await (await e2e.newContext()).newPage();
  await signUpInBrowser(owner, e2e.service.origin, {
    name: `${name} Owner`,
    email: `${name.toLowerCase()}-${Date.now()}@example.com`,
    password: "correct horse battery",
  });
  await owner.getByTestId("home-title").waitFor();
  const slug = `${organization.toLowerCase()}-${Date.now()}`;
  const created = await apiFromPage(owner, "/organization/create", { name: organization, slug });
  expect(created.status).toBe(200);
  return { owner, organizationId: created.body.id as string };
}

/** On a connection's row of the setup screens: its domain's TXT record published in `dns`, verified, and seen verified. */
export async function proveDomainOnScreen(row: Locator, dns: TestDnsServer): Promise<void> {
  await row.getByTestId("setup-domain-show").click();
  const name = await row.getByTestId("setup-record-name").textContent();
  const value = await row.getByTestId("setup-record-value").textContent();
  await dns.setTxtRecords({ [name!]: [value!] });
  await row.getByTestId("setup-domain-verify").click();
  await expect.poll(() => row.getByTestId("setup-domain").getAttribute("data-verified")).toBe("true");
}
