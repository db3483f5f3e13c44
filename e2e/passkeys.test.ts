import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

const e2e = setUpServiceAndBrowser({ host: "localhost" });

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform passkey that always verifies the user. */
async function withVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

// Two tests on one page and authenticator: each step gets its own time budget on a loaded machine,
// and a stuck step fails on its own locator (page timeout) rather than on the test's.
describe("passkeys in Chromium", () => {
  const user = { name: "Pia", email: `pia-${Date.now()}@example.com`, password: "correct horse battery" };
  let context: BrowserContext;
  let page: Page;

  it("adds a passkey on the security page after the password is asked for again", async () => {
    context = await e2e.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await withVirtualAuthenticator(page);
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-title").waitFor();

    // Until the address is proven, the panel says what to do instead of offering a button that fails.
    await page.goto(`${e2e.service.origin}/account/security`);
    const panel = page.getByTestId("passkeys-card");
    await expect
      .poll(() => panel.getByTestId("verify-to-enrol").textContent())
      .toContain(`Verify your email address to add a passkey: follow the verification link mailed to ${user.email}`);
    expect(await panel.getByTestId("passkey-add").count()).toBe(0);
    const verificationMails = () => e2e.service.mail!.to(user.email).filter((m) => /verif/i.test(m.subject));
    // Sign-up mailed the link (passkeys are on); the panel sends it again.
    await expect.poll(() => verificationMails().length).toBe(1);
    await panel.getByTestId("verify-to-enrol-resend").click();
    await panel.getByTestId("verify-to-enrol-sent").waitFor();
    await expect.poll(() => verificationMails().length).toBe(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(verificationMails()[1]!.links.find((l) => l.includes("/verify-email"))!);
    await page.getByTestId("verify-success").waitFor();

    await page.goto(`${e2e.service.origin}/account/security`);
    // As if the sign-up's proof of identity had lapsed (minutes pass): the password is asked for first.
    await e2e.service.auth.database.db.deleteFrom("sessionProof").execute();
    await page.getByTestId("passkey-add").click();
    await page.getByTestId("passkey-confirm-password").fill(user.password);
    await page.getByTestId("passkey-confirm").click();
    await page.getByTestId("passkey-notice").waitFor();
    await expect.poll(() => page.getByTestId("passkey-row").count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("signs in with the passkey alone, by autofill and by the button", async () => {
    // Signed out, the same browser (and its authenticator) signs in with the passkey alone. The email
    // field offers passkeys in its autofill (conditional UI); the virtual authenticator picks its own.
    await context.clearCookies();
    // (The autofill can sign in before the field is read, so the field's offer is checked below.)
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("home-title").waitFor();

    // Where the browser offers no passkey autofill, the button does it.
    await context.clearCookies();
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await page.goto(`${e2e.service.origin}/sign-in`);
    expect(await page.getByTestId("sign-in-email").getAttribute("autocomplete")).toBe("username webauthn");
    await page.getByTestId("sign-in-passkey").click();
    await page.getByTestId("home-title").waitFor();
  });
});
