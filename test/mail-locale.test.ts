import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, uniqueEmail } from "./helpers/mail-flows.js";
import { verifyEmail } from "./helpers/organization.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Mail speaks the language of the request that caused it: Accept-Language, English without one. */
let capture: MailCapture;
let server: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  server = await startTestServer({
    options: { emailAndPassword: { requireEmailVerification: true } },
    extra: { mail: { smtpUrl: capture.url } },
  });
});
afterAll(async () => {
  await server.close();
  await capture.close();
});

const GERMAN = { "accept-language": "fr-CH, de-DE;q=0.9, en;q=0.8" };

async function signUpWith(headers: Record<string, string>) {
  const email = uniqueEmail("locale");
  const res = await server.browser().request("/sign-up/email", {
    method: "POST",
    body: { name: "Lena", email, password: "correct horse battery" },
    headers,
  });
  expect(res.status).toBe(200);
  return email;
}

describe("mail language", () => {
  it("verifies a sign-up in German when the browser asks for German", async () => {
    const email = await signUpWith(GERMAN);
    const mail = await nthMail(capture, email, "Bestätigen Sie Ihre E-Mail-Adresse");
    expect(mail.text).toContain("Bitte bestätigen Sie, dass dies Ihre E-Mail-Adresse ist.");
    expect(mail.text).toMatch(/Der Link funktioniert \d+ (Stunden?|Tage?|Minuten?) lang\./);
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain("Oder öffnen Sie diesen Link:");
  });

  it("writes English without an Accept-Language, or with one we do not speak", async () => {
    const cases: Record<string, string>[] = [{}, { "accept-language": "fr-FR, ja;q=0.5" }];
    for (const headers of cases) {
      const email = await signUpWith(headers);
      const mail = await nthMail(capture, email, "Verify your email address");
      expect(mail.text).toContain("Please confirm that this is your email address.");
      expect(mail.html).toContain('<html lang="en">');
    }
  });

  it("takes the language from the headers an app passes to auth.api.signUpEmail", async () => {
    const email = uniqueEmail("api-locale");
    await server.auth.api.signUpEmail({
      body: { name: "Lena", email, password: "correct horse battery" },
      headers: { "accept-language": "de" },
    });
    const mail = await nthMail(capture, email, "Bestätigen Sie Ihre E-Mail-Adresse");
    expect(mail.html).toContain('<html lang="de">');
  });

  it("sends the password reset link in the language of the reset request", async () => {
    const { email } = await signUp(server, { email: uniqueEmail("reset-locale") });
    const german = await server
      .browser()
      .request("/request-password-reset", { method: "POST", body: { email }, headers: GERMAN });
    expect(german.status).toBe(200);
    const mail = await nthMail(capture, email, "Setzen Sie Ihr Passwort zurück");
    expect(mail.text).toContain("Jemand möchte das Passwort Ihres Kontos zurücksetzen.");
    expect(mail.text).toMatch(/Neues Passwort wählen: http/);

    const english = await server.browser().post("/request-password-reset", { email });
    expect(english.status).toBe(200);
    const second = await nthMail(capture, email, "Reset your password");
    expect(second.text).toContain("Someone asked to reset the password of your account.");
  });
});

describe("routes pass the request's language down to the mail", () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ options: EVERY_FEATURE_ON, extra: { mail: { smtpUrl: capture.url } } });
  });
  afterAll(() => open.close());

  it("a password change notice, an invitation and a magic link, each in the language asked for", async () => {
    const owner = await signUp(open, { email: uniqueEmail("owner-locale") });
    const changed = await owner.browser.request("/change-password", {
      method: "POST",
      body: { currentPassword: owner.password, newPassword: "another long password" },
      headers: GERMAN,
    });
    expect(changed.status).toBe(200);
    await nthMail(capture, owner.email, "Ihr Passwort wurde geändert");
    await verifyEmail(open, owner.user.id);

    const created = await owner.browser.post("/organization/create", {
      name: "Locale",
      slug: uniqueEmail("org").split("@")[0],
    });
    expect(created.status).toBe(200);
    const invitee = uniqueEmail("invitee-locale");
    const invited = await owner.browser.request("/organization/invite-member", {
      method: "POST",
      body: { email: invitee, role: "member", organizationId: created.body.id },
      headers: GERMAN,
    });
    expect(invited.status).toBe(200);
    const invitation = await nthMail(capture, invitee, "Sie wurden eingeladen, einer Organisation beizutreten");
    expect(invitation.html).toContain('<html lang="de">');

    const linked = uniqueEmail("link-locale");
    const sent = await open.browser().post("/sign-in/magic-link", { email: linked });
    expect(sent.status).toBe(200);
    const english = await nthMail(capture, linked, "Your sign-in link");
    expect(english.html).toContain('<html lang="en">');
  });
});
