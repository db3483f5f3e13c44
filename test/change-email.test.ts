import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const APPROVE = "Approve the change of your email address";
const VERIFY_NEW = "Verify your new email address";
const CHANGED = "Your email address was changed";

let capture: MailCapture;
let server: TestServer;
/** user.changeEmail.sendChangeEmailConfirmation off. */
let direct: TestServer;
/** user.changeEmail off (the default). */
let disabled: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  const extra = { mail: { smtpUrl: capture.url } };
  server = await startTestServer({ options: { user: { changeEmail: { enabled: true } } }, extra });
  direct = await startTestServer({
    options: { user: { changeEmail: { enabled: true, sendChangeEmailConfirmation: false } } },
    extra,
  });
  disabled = await startTestServer({ extra });
});
afterAll(async () => {
  await Promise.all([server.close(), direct.close(), disabled.close()]);
  await capture.close();
});
afterEach(() => {
  for (const s of [server, direct, disabled]) expect(s.loggedErrors).toEqual([]);
});

async function verifiedUser(target: TestServer, label: string) {
  const account = await signUp(target, { email: uniqueEmail(label) });
  await target.auth.database.db
    .updateTable("user")
    .set({ emailVerified: true })
    .where("id", "=", account.user.id)
    .execute();
  return account;
}

async function storedUser(target: TestServer, id: string) {
  const row = await target.auth.database.db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? { email: row.email, emailVerified: Boolean(row.emailVerified) } : null;
}

describe("POST /change-email", () => {
  it("moves an unverified user's email through a link to the new address", async () => {
    const { browser, email, user } = await signUp(server, { email: uniqueEmail("unverified") });
    const newEmail = uniqueEmail("moved");
    const res = await browser.post("/change-email", { newEmail: newEmail.toUpperCase(), callbackURL: "/settings" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(await storedUser(server, user.id)).toEqual({ email, emailVerified: false });

    const link = linkIn(await nthMail(capture, newEmail, VERIFY_NEW), "/verify-email");
    expect(link.startsWith(`${server.origin}/api/auth/verify-email?token=`)).toBe(true);
    expect(link.endsWith("&callbackURL=%2Fsettings")).toBe(true);
    const followed = await browser.get(link);
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe(`${server.origin}/settings?emailChange=changed`);
    expect(await storedUser(server, user.id)).toEqual({ email: newEmail, emailVerified: true });
    expect((await browser.get("/get-session")).body.user.email).toBe(newEmail);

    const notice = await nthMail(capture, email, CHANGED);
    expect(notice.text).toContain(newEmail);
    expect(await settledCount(server, capture, email, APPROVE)).toBe(0);
    const signIn = await server
      .browser()
      .post("/sign-in/email", { email: newEmail, password: "correct horse battery" });
    expect(signIn.status).toBe(200);

    // The applied link cannot be used again.
    const replay = await browser.get(link);
    expect(replay.headers.get("location")).toMatch(/\?error=(user_not_found|invalid_token)$/);
  });

  it("asks a verified user's current address first, then the new one, and ends verified", async () => {
    const { browser, email, user } = await verifiedUser(server, "verified");
    const newEmail = uniqueEmail("next");
    expect((await browser.post("/change-email", { newEmail })).body).toEqual({ status: true });
    const approve = await nthMail(capture, email, APPROVE);
    expect(approve.text).toContain(newEmail);
    expect(await settledCount(server, capture, newEmail, VERIFY_NEW)).toBe(0);

    const approved = await server.browser().get(linkIn(approve, "/verify-email"));
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toBe(`${server.origin}/?emailChange=approved`);
    expect(await storedUser(server, user.id)).toEqual({ email, emailVerified: true });

    const verify = await nthMail(capture, newEmail, VERIFY_NEW);
    const applied = await server.browser().get(linkIn(verify, "/verify-email").replace(/&callbackURL=[^&]*$/, ""));
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ status: true, user: { id: user.id, email: newEmail, emailVerified: true } });
    expect(await storedUser(server, user.id)).toEqual({ email: newEmail, emailVerified: true });
    await nthMail(capture, email, CHANGED);
  });

  it("sends a verified user's link straight to the new address when sendChangeEmailConfirmation is off", async () => {
    const { browser, email, user } = await verifiedUser(direct, "direct");
    const newEmail = uniqueEmail("direct-new");
    await browser.post("/change-email", { newEmail });
    await browser.get(linkIn(await nthMail(capture, newEmail, VERIFY_NEW), "/verify-email"));
    expect(await storedUser(direct, user.id)).toEqual({ email: newEmail, emailVerified: true });
    expect(await settledCount(direct, capture, email, APPROVE)).toBe(0);
  });

  it("lets whoever takes the new address first keep it", async () => {
    const { browser, email, user } = await signUp(server, { email: uniqueEmail("slow") });
    const newEmail = uniqueEmail("contested");
    await browser.post("/change-email", { newEmail });
    const link = linkIn(await nthMail(capture, newEmail, VERIFY_NEW), "/verify-email");
    await signUp(server, { email: newEmail });
    const res = await browser.get(link);
    expect(res.headers.get("location")).toBe(`${server.origin}/?error=could_not_update_email`);
    const json = await browser.get(link.replace(/&callbackURL=[^&]*$/, ""));
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ code: "COULD_NOT_UPDATE_EMAIL", message: "Couldn't update your email" });
    expect(await storedUser(server, user.id)).toEqual({ email, emailVerified: false });
  });

  it("refuses a link followed while signed in as someone else", async () => {
    const { browser } = await signUp(server);
    const newEmail = uniqueEmail("hijack");
    await browser.post("/change-email", { newEmail });
    const link = linkIn(await nthMail(capture, newEmail, VERIFY_NEW), "/verify-email");
    const intruder = await signUp(server);
    const res = await intruder.browser.get(link);
    expect(res.headers.get("location")).toBe(`${server.origin}/?error=unauthorized`);
    expect((await intruder.browser.get("/get-session")).body.user.email).toBe(intruder.email);
  });

  it("expires change links with the verification lifetime", async () => {
    const { browser, email, user } = await signUp(server);
    const newEmail = uniqueEmail("late");
    await browser.post("/change-email", { newEmail });
    const link = linkIn(await nthMail(capture, newEmail, VERIFY_NEW), "/verify-email");
    server.clock.advance(3601);
    const res = await server.browser().get(link);
    expect(res.headers.get("location")).toBe(`${server.origin}/?error=token_expired`);
    expect((await storedUser(server, user.id))?.email).toBe(email);
  });

  it("refuses the same email, a taken email, a malformed one and a missing session", async () => {
    const { browser, email } = await signUp(server);
    const other = await signUp(server);
    const same = await browser.post("/change-email", { newEmail: email.toUpperCase() });
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ code: "EMAIL_IS_THE_SAME", message: "Email is the same" });
    const taken = await browser.post("/change-email", { newEmail: other.email });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ code: "COULD_NOT_UPDATE_EMAIL", message: "Couldn't update your email" });
    const malformed = await browser.post("/change-email", { newEmail: "nope" });
    expect(malformed.body.code).toBe("INVALID_EMAIL");
    const anonymous = await server.browser().post("/change-email", { newEmail: uniqueEmail("x") });
    expect(anonymous.status).toBe(401);
    expect(await settledCount(server, capture, other.email, VERIFY_NEW)).toBe(0);
  });

  it("answers CHANGE_EMAIL_DISABLED when the option is off", async () => {
    const { browser } = await signUp(disabled);
    const res = await browser.post("/change-email", { newEmail: uniqueEmail("off") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "CHANGE_EMAIL_DISABLED", message: "Change email is disabled" });
  });
});
