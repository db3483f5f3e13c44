import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CapturedMail, type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, uniqueEmail } from "./helpers/mail-flows.js";
import { verifyEmail } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Issue 31: every mail has a branded HTML part and a plain-text part with the same links. */
const APP = "Acme Cloud";
const FIREFOX = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
const GERMAN = { "accept-language": "de" };
let capture: MailCapture;
let server: TestServer;
let unnamed: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  [server, unnamed] = await Promise.all([
    startTestServer({
      options: {
        appName: APP,
        magicLink: { enabled: true },
        emailOTP: { enabled: true },
        organization: { enabled: true },
        securityActivity: { enabled: true },
        user: {
          changeEmail: { enabled: true },
          deleteUser: { enabled: true, sendDeleteAccountVerification: true },
        },
      },
      extra,
    }),
    startTestServer({ options: { magicLink: { enabled: true } }, extra }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), unnamed?.close()]);
  await capture?.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
});

const decode = (value = "") =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
const htmlLinks = (html: string) => [...new Set([...html.matchAll(/href="([^"]+)"/g)].map((m) => decode(m[1])))];

/** The checks every mail passes: two parts, the name on both, the same links in both. */
function expectBranded(mail: CapturedMail, appName = APP) {
  expect(mail.contentType).toBe("multipart/alternative");
  expect(mail.text.length).toBeGreaterThan(0);
  expect(mail.html).toMatch(/^<!doctype html>/i);
  expect(mail.text.split("\n")[0]).toBe(appName);
  expect(mail.html).toContain(`>${appName}</td>`);
  expect(mail.html).not.toMatch(/<img|<link|<script|src=/i);
  expect(htmlLinks(mail.html)).toEqual([...new Set(mail.links)]);
}

describe("the mail layout", () => {
  it("brands the sign-up verification, reset, sign-in link and code mails, in English and German", async () => {
    const { email, browser } = await signUp(server, { email: uniqueEmail("brand") });
    expect((await browser.post("/send-verification-email", { email })).status).toBe(200);
    const verify = await nthMail(capture, email, "Verify your email address");
    expectBranded(verify);
    expect(verify.links).toHaveLength(1);
    expect(verify.html).toContain("This message was sent by Acme Cloud.");

    await server.browser().request("/request-password-reset", { method: "POST", body: { email }, headers: GERMAN });
    const reset = await nthMail(capture, email, "Setzen Sie Ihr Passwort zurück");
    expectBranded(reset);
    expect(reset.html).toContain('<html lang="de">');
    expect(reset.text).toContain("Diese Nachricht wurde von Acme Cloud gesendet.");

    const linked = uniqueEmail("brand-link");
    expect((await server.browser().post("/sign-in/magic-link", { email: linked })).status).toBe(200);
    expectBranded(await nthMail(capture, linked, "Your sign-in link"));

    const coded = uniqueEmail("brand-code");
    await server.browser().post("/email-otp/send-verification-otp", { email: coded, type: "sign-in" });
    const code = await nthMail(capture, coded, "");
    expectBranded(code);
    const digits = /\b(\d{6})\b/.exec(code.text)?.[1] ?? "";
    expect(digits).toMatch(/^\d{6}$/);
    expect(code.html).toContain(`>${digits}</p>`);
    expect(code.links).toEqual([]);
  });

  it("escapes an organization name in the invitation, and shows it as text", async () => {
    const owner = await signUp(server, { email: uniqueEmail("brand-owner") });
    await verifyEmail(server, owner.user.id);
    const name = `<script>alert("x")</script> & Co`;
    const created = await owner.browser.post("/organization/create", { name, slug: uniqueEmail("o").split("@")[0] });
    expect(created.status).toBe(200);
    const invitee = uniqueEmail("brand-invitee");
    const invited = await owner.browser.post("/organization/invite-member", {
      email: invitee,
      role: "member",
      organizationId: created.body.id,
    });
    expect(invited.status).toBe(200);
    const mail = await nthMail(capture, invitee, "invited");
    expectBranded(mail);
    expect(mail.text).toContain(name);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
    expect(mail.links.some((link) => link.includes("invitation"))).toBe(true);
  });

  it("brands the new-device notice, the change-email and the delete confirmations", async () => {
    const account = await signUp(server, { email: uniqueEmail("brand-acct") });
    await verifyEmail(server, account.user.id);
    const laptop = server.browser();
    const signedIn = await laptop.post(
      "/sign-in/email",
      { email: account.email, password: account.password },
      { headers: { "user-agent": FIREFOX } },
    );
    expect(signedIn.status).toBe(200);
    expectBranded(await nthMail(capture, account.email, "New sign-in to your account"));

    expect((await account.browser.post("/change-email", { newEmail: uniqueEmail("brand-new") })).status).toBe(200);
    expectBranded(await nthMail(capture, account.email, "Approve the change of your email address"));

    expect((await account.browser.post("/delete-user", {})).status).toBe(200);
    const deletion = await nthMail(capture, account.email, "Confirm the deletion of your account");
    expectBranded(deletion);
    expect(deletion.links.some((l) => l.includes("/delete-user/callback"))).toBe(true);
  });

  it("names the product Gatehouse when no appName is set", async () => {
    const email = uniqueEmail("brand-default");
    expect((await unnamed.browser().post("/sign-in/magic-link", { email })).status).toBe(200);
    expectBranded(await nthMail(capture, email, "Your sign-in link"), "Gatehouse");
  });
});
