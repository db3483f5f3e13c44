import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import { PARALLEL_REQUESTS } from "./helpers/burst.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
let capture: MailCapture;
beforeAll(async () => {
  capture = await startMailCapture();
  server = await startTestServer({
    options: { organization: { teams: { enabled: true } } },
    extra: { mail: { smtpUrl: capture.url } },
  });
});
afterAll(async () => {
  await server.close();
  await capture.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

let n = 0;
const freshEmail = () => `invitee-${Date.now().toString(36)}-${n++}@example.com`;

/** Invitation mails written for the address (the outbox, whatever has been delivered yet). */
async function invitationMails(email: string): Promise<number> {
  const rows = await server.auth.database.db
    .selectFrom("outbox")
    .select("id")
    .where("to", "=", email)
    .where("kind", "=", "organization-invitation")
    .execute();
  return rows.length;
}

async function markVerified(userId: string) {
  await server.auth.database.db.updateTable("user").set({ emailVerified: true }).where("id", "=", userId).execute();
}

describe("invitation abuse", () => {
  it("a guest (anonymous user) cannot invite anyone, and no mail is sent", async () => {
    const guest = server.browser();
    expect((await guest.post("/sign-in/anonymous", {})).status).toBe(200);
    const created = await guest.post("/organization/create", { name: "Totally Your Bank", slug: `guest-${n++}` });
    expect(created.status).toBe(200);
    const email = freshEmail();
    const res = await guest.post("/organization/invite-member", { email, role: "member" });
    expect([res.status, res.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION"]);
    await server.settled();
    expect(capture.to(email)).toEqual([]);
  });

  it("an account whose address is not verified invites by default, as with better-auth", async () => {
    const { owner } = await createOrganization(server);
    await server.auth.database.db
      .updateTable("user")
      .set({ emailVerified: false })
      .where("id", "=", owner.user.id)
      .execute();
    const email = freshEmail();
    const res = await owner.browser.post("/organization/invite-member", { email, role: "member" });
    expect([res.status, res.body.email]).toEqual([200, email]);
    expect(await invitationMails(email)).toBe(1);
  });

  it("with organization.requireVerifiedInviter, an unverified account cannot invite (403), and no mail is sent", async () => {
    const strict = await startTestServer({
      options: { organization: { requireVerifiedInviter: true } },
      extra: { mail: { smtpUrl: capture.url } },
    });
    try {
      const { owner } = await createOrganization(strict);
      const email = freshEmail();
      expect((await owner.browser.post("/organization/invite-member", { email, role: "member" })).status).toBe(200);
      await strict.auth.database.db
        .updateTable("user")
        .set({ emailVerified: false })
        .where("id", "=", owner.user.id)
        .execute();
      const refused = freshEmail();
      const res = await owner.browser.post("/organization/invite-member", { email: refused, role: "member" });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "EMAIL_VERIFICATION_REQUIRED_TO_INVITE",
        message: "Verify your email address before inviting anyone",
      });
      const mails = await strict.auth.database.db.selectFrom("outbox").select("to").execute();
      expect(mails.map((mail) => mail.to)).toEqual([email]);
    } finally {
      await strict.close();
    }
  });

  it("the mail names the inviter by their verified address, never by the name they typed", async () => {
    const { owner } = await createOrganization(server);
    await owner.browser.post("/update-user", { name: "Claim your prize at evil.example" });
    const email = freshEmail();
    expect((await owner.browser.post("/organization/invite-member", { email, role: "member" })).status).toBe(200);
    await expect.poll(() => capture.to(email).length).toBe(1);
    const [mail] = capture.to(email);
    expect(mail?.text).toContain(`${owner.email} invited you to join`);
    expect(`${mail?.text}${mail?.html}`).not.toContain("evil.example");
  });

  it(`${PARALLEL_REQUESTS} parallel resends of one invitation send one mail; the next waits out the cooldown`, async () => {
    const { owner } = await createOrganization(server);
    const email = freshEmail();
    expect((await owner.browser.post("/organization/invite-member", { email, role: "member" })).status).toBe(200);
    server.clock.advance(60);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, () =>
        owner.browser.post("/organization/invite-member", { email, role: "member", resend: true }),
      ),
    );
    const sent = answers.filter((res) => res.status === 200);
    expect(sent).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect([res.status, res.body.code]).toEqual([429, "INVITATION_RESEND_TOO_SOON"]);
      expect(res.headers.get("retry-after")).toBe("60");
    }
    expect(await invitationMails(email)).toBe(2);
    server.clock.advance(60);
    const later = await owner.browser.post("/organization/invite-member", { email, role: "member", resend: true });
    expect(later.status).toBe(200);
    expect(await invitationMails(email)).toBe(3);
    const row = await server.auth.database.db
      .selectFrom("invitation")
      .select("sendCount")
      .where("id", "=", later.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.sendCount)).toBe(3);
  });

  it(`one address gets at most 10 invitation mails a day across organizations, under ${PARALLEL_REQUESTS} parallel requests`, async () => {
    const { owner, organizationId } = await createOrganization(server);
    const organizations = [organizationId];
    for (let i = 0; i < 11; i++) {
      const created = await owner.browser.post("/organization/create", { name: `Cap ${i}`, slug: `cap-${n++}` });
      organizations.push(created.body.id);
    }
    const email = freshEmail();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, (_, i) =>
        owner.browser.post("/organization/invite-member", {
          email,
          role: "member",
          organizationId: organizations[i % organizations.length],
          resend: true,
        }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(10);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect([res.status, res.body.code]).toContainEqual(
        expect.stringMatching(
          /^INVITATION_(RECIPIENT_LIMIT_REACHED|RESEND_TOO_SOON)$|^USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION$/,
        ),
      );
    }
    expect(await invitationMails(email)).toBe(10);

    // The next day the address may be invited again.
    server.clock.advance(86_400);
    const nextDay = await owner.browser.post("/organization/invite-member", {
      email,
      role: "member",
      organizationId: organizations[0],
      resend: true,
    });
    expect(nextDay.status).toBe(200);
    expect(await invitationMails(email)).toBe(11);

    // Housekeeping forgets a count once its day is over.
    const quota = () =>
      server.auth.database.db
        .selectFrom("attemptCounter")
        .select("attempts")
        .where("key", "=", `invitations-to:${email}`)
        .execute();
    expect(await quota()).toEqual([{ attempts: 1 }]);
    server.clock.advance(86_401);
    await sweepExpired(server.auth.context);
    expect(await quota()).toEqual([]);
  });

  it("caps invitations per inviter per day, across organizations", async () => {
    const capped = await startTestServer({ options: { organization: { invitationsPerInviterPerDay: 3 } } });
    try {
      const { owner } = await createOrganization(capped, { name: "First" });
      const second = await owner.browser.post("/organization/create", { name: "Second", slug: `second-${n++}` });
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const organizationId = i < 2 ? undefined : second.body.id;
        const res = await owner.browser.post("/organization/invite-member", {
          email: freshEmail(),
          role: "member",
          ...(organizationId ? { organizationId } : {}),
        });
        statuses.push(res.status === 200 ? 200 : `${res.status} ${res.body.code}`);
      }
      expect(statuses).toEqual([200, 200, 200, "403 INVITATION_LIMIT_REACHED"]);
      // A day later the inviter may invite again.
      capped.clock.advance(86_401);
      const later = await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" });
      expect(later.status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});

describe("invitations per inviter under parallel requests", () => {
  it(`${PARALLEL_REQUESTS} parallel invitations across 15 organizations create at most invitationsPerInviterPerDay`, async () => {
    const cap = 5;
    const capped = await startTestServer({ options: { organization: { invitationsPerInviterPerDay: cap } } });
    try {
      const { owner, organizationId } = await createOrganization(capped, { name: "Burst" });
      const others = await Promise.all(
        Array.from({ length: 14 }, () =>
          owner.browser.post("/organization/create", { name: "Burst", slug: `burst-${n++}` }).then((r) => r.body.id),
        ),
      );
      const organizations = [organizationId, ...others];
      const answers = await Promise.all(
        Array.from({ length: PARALLEL_REQUESTS }, (_, i) =>
          owner.browser.post("/organization/invite-member", {
            email: freshEmail(),
            role: "member",
            organizationId: organizations[i % organizations.length],
          }),
        ),
      );
      expect(answers.filter((a) => a.status !== 200 && a.body.code !== "INVITATION_LIMIT_REACHED")).toEqual([]);
      const { db } = capped.auth.database;
      const created = await db.selectFrom("invitation").select("id").where("inviterId", "=", owner.user.id).execute();
      expect(created.length).toBe(cap);
      expect(answers.filter((a) => a.status === 200).length).toBe(cap);
    } finally {
      await capped.close();
    }
  });
});

describe("invite-member and the invitation mail", () => {
  it("mails a link into the application over SMTP; the recipient follows it and accepts", async () => {
    const { owner, organizationId, organization } = await createOrganization(server, { name: "Mailers" });
    const email = freshEmail();
    const res = await owner.browser.post("/organization/invite-member", { email: email.toUpperCase(), role: "admin" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      organizationId,
      email,
      role: "admin",
      status: "pending",
      inviterId: owner.user.id,
      teamId: null,
    });
    expect(new Date(res.body.expiresAt).getTime() - new Date(res.body.createdAt).getTime()).toBe(172800 * 1000);

    const mail = await capture.waitFor((m) => m.to === email);
    // The organization's name (user-chosen text) is in the body, never in the subject.
    expect(mail.subject).toBe("You have been invited to join an organization");
    expect(mail.text).toContain(organization.name);
    expect(mail.text).toContain(owner.email);
    expect(mail.links).toContain(`${server.origin}/accept-invitation/${res.body.id}`);

    const invitee = await signUp(server, { email });
    const invitationId = mail.links[0]!.split("/").pop()!;
    const view = await invitee.browser.get(`/organization/get-invitation?id=${invitationId}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      id: invitationId,
      organizationName: "Mailers",
      organizationSlug: organization.slug,
      inviterEmail: owner.email,
    });
    const accepted = await invitee.browser.post("/organization/accept-invitation", { invitationId });
    expect(accepted.status).toBe(200);
    expect(accepted.body.invitation).toMatchObject({ id: invitationId, status: "accepted" });
    expect(accepted.body.member).toMatchObject({ organizationId, userId: invitee.user.id, role: "admin" });
    expect(accepted.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(true);
    expect((await invitee.browser.get("/get-session")).body.session.activeOrganizationId).toBe(organizationId);

    const again = await invitee.browser.post("/organization/accept-invitation", { invitationId });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found" });
  });

  it("sendInvitationEmail: false writes no mail", async () => {
    const quiet = await startTestServer({ options: { organization: { sendInvitationEmail: false } } });
    try {
      const { owner } = await createOrganization(quiet);
      const res = await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" });
      expect(res.status).toBe(200);
      expect(await quiet.auth.database.db.selectFrom("outbox").select("id").execute()).toEqual([]);
      expect(quiet.loggedErrors).toEqual([]);
    } finally {
      await quiet.close();
    }
  });

  it("refuses a duplicate pending invitation, resends with resend:true, and refuses members, bad emails and roles", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const email = freshEmail();
    const first = await owner.browser.post("/organization/invite-member", { email, role: "member" });
    const dup = await owner.browser.post("/organization/invite-member", { email, role: "member" });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
      message: "User is already invited to this organization",
    });
    server.clock.advance(3600);
    const resent = await owner.browser.post("/organization/invite-member", { email, role: "member", resend: true });
    expect(resent.status).toBe(200);
    expect(resent.body.id).toBe(first.body.id);
    expect(new Date(resent.body.expiresAt).getTime()).toBeGreaterThan(new Date(first.body.expiresAt).getTime());
    await expect.poll(() => capture.to(email).length).toBe(2);
    const rows = await server.auth.database.db
      .selectFrom("invitation")
      .select("id")
      .where("email", "=", email)
      .execute();
    expect(rows).toHaveLength(1);

    const member = await joinAs(server, organizationId, "member");
    const already = await owner.browser.post("/organization/invite-member", { email: member.email, role: "member" });
    expect(already.body.code).toBe("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    const badEmail = await owner.browser.post("/organization/invite-member", { email: "nope", role: "member" });
    expect(badEmail.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
    const badRole = await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "ghost" });
    expect(badRole.status).toBe(400);
    expect(badRole.body.code).toBe("ROLE_NOT_FOUND");
    const admin = await joinAs(server, organizationId, "admin");
    const asOwner = await admin.browser.post("/organization/invite-member", { email: freshEmail(), role: "owner" });
    expect(asOwner.status).toBe(403);
    expect(asOwner.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
    const byMember = await member.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    const stranger = await signUp(server);
    const noOrg = await stranger.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" });
    expect(noOrg.body.code).toBe("ORGANIZATION_NOT_FOUND");
    const notMember = await stranger.browser.post("/organization/invite-member", {
      email: freshEmail(),
      role: "member",
      organizationId,
    });
    expect(notMember.body.code).toBe("MEMBER_NOT_FOUND");
  });

  it("enforces invitationLimit", async () => {
    const limited = await startTestServer({ options: { organization: { invitationLimit: 1 } } });
    try {
      const { owner } = await createOrganization(limited);
      expect(
        (await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" })).status,
      ).toBe(200);
      const over = await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" });
      expect(over.status).toBe(403);
      expect(over.body.code).toBe("INVITATION_LIMIT_REACHED");
      expect(limited.loggedErrors).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe("the invitation state machine", () => {
  it("only the recipient (any letter case) may act; reject ends it with 'Invitation not found!' afterwards", async () => {
    const { owner } = await createOrganization(server);
    const email = freshEmail();
    const inv = (await owner.browser.post("/organization/invite-member", { email, role: "member" })).body;
    const wrong = await signUp(server);
    const notRecipient = await wrong.browser.post("/organization/accept-invitation", { invitationId: inv.id });
    expect(notRecipient.status).toBe(403);
    expect(notRecipient.body).toEqual({
      code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
      message: "You are not the recipient of the invitation",
    });
    expect((await wrong.browser.get(`/organization/get-invitation?id=${inv.id}`)).status).toBe(403);
    expect((await wrong.browser.post("/organization/reject-invitation", { invitationId: inv.id })).status).toBe(403);

    const recipient = await signUp(server, { email: email.toUpperCase() });
    const rejected = await recipient.browser.post("/organization/reject-invitation", { invitationId: inv.id });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ invitation: { id: inv.id, status: "rejected" }, member: null });
    const twice = await recipient.browser.post("/organization/reject-invitation", { invitationId: inv.id });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found!" });
    const accept = await recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id });
    expect(accept.body.code).toBe("INVITATION_NOT_FOUND");
  });

  it("an invitation expires after invitationExpiresIn; a new invite then replaces it", async () => {
    const { owner } = await createOrganization(server);
    const email = freshEmail();
    const recipient = await signUp(server, { email });
    const inv = (await owner.browser.post("/organization/invite-member", { email, role: "member" })).body;
    server.clock.advance(172800 - 10);
    expect((await recipient.browser.get(`/organization/get-invitation?id=${inv.id}`)).status).toBe(200);
    server.clock.advance(20);
    const expired = await recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("INVITATION_NOT_FOUND");
    expect((await recipient.browser.get(`/organization/get-invitation?id=${inv.id}`)).status).toBe(400);
    expect((await recipient.browser.post("/organization/reject-invitation", { invitationId: inv.id })).status).toBe(
      400,
    );

    const renewed = await owner.browser.post("/organization/invite-member", { email, role: "member" });
    expect(renewed.status).toBe(200);
    expect(renewed.body.id).not.toBe(inv.id);
    const listed = (await owner.browser.get("/organization/list-invitations")).body;
    expect(listed.find((i: any) => i.id === inv.id).status).toBe("canceled");
    expect(
      (await recipient.browser.post("/organization/accept-invitation", { invitationId: renewed.body.id })).status,
    ).toBe(200);
  });

  it("cancel needs invitation:cancel; a canceled invitation cannot be accepted", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const email = freshEmail();
    const recipient = await signUp(server, { email });
    const inv = (await owner.browser.post("/organization/invite-member", { email, role: "member" })).body;
    const member = await joinAs(server, organizationId, "member");
    const refused = await member.browser.post("/organization/cancel-invitation", { invitationId: inv.id });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
      message: "You are not allowed to cancel this invitation",
    });
    const stranger = await signUp(server);
    expect((await stranger.browser.post("/organization/cancel-invitation", { invitationId: inv.id })).body.code).toBe(
      "MEMBER_NOT_FOUND",
    );
    const canceled = await owner.browser.post("/organization/cancel-invitation", { invitationId: inv.id });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: inv.id, status: "canceled" });
    expect((await recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id })).status).toBe(
      400,
    );
    expect((await owner.browser.post("/organization/cancel-invitation", { invitationId: "missing" })).body.code).toBe(
      "INVITATION_NOT_FOUND",
    );
  });

  it("accepting needs the inviter to still be a member, and puts the invitee in the invited team", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const admin = await joinAs(server, organizationId, "admin");
    const team = (await owner.browser.post("/organization/create-team", { name: "Ops" })).body;
    const email = freshEmail();
    const recipient = await signUp(server, { email });
    const inv = (await admin.browser.post("/organization/invite-member", { email, role: "member", teamId: team.id }))
      .body;
    expect(inv.teamId).toBe(team.id);
    await owner.browser.post("/organization/remove-member", { memberIdOrEmail: admin.memberId });
    server.clock.advance(60);
    const gone = await recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id });
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual({
      code: "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
      message: "Inviter is no longer a member of the organization",
    });
    expect((await recipient.browser.get(`/organization/get-invitation?id=${inv.id}`)).body.code).toBe(
      "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
    );

    const inv2 = (
      await owner.browser.post("/organization/invite-member", {
        email,
        role: "member",
        teamId: [team.id],
        resend: true,
      })
    ).body;
    const ok = await recipient.browser.post("/organization/accept-invitation", { invitationId: inv2.id });
    expect(ok.status).toBe(200);
    const session = (await recipient.browser.get("/get-session")).body.session;
    expect(session.activeTeamId).toBe(team.id);
    const members = (await recipient.browser.get(`/organization/list-team-members?teamId=${team.id}`)).body;
    expect(members.map((m: any) => m.userId)).toContain(recipient.user.id);

    const badTeam = await owner.browser.post("/organization/invite-member", {
      email: freshEmail(),
      role: "member",
      teamId: "nope",
    });
    expect(badTeam.body.code).toBe("TEAM_NOT_FOUND");
    const commaTeam = await owner.browser.post("/organization/invite-member", {
      email: freshEmail(),
      role: "member",
      teamId: "a,b",
    });
    expect(commaTeam.body.code).toBe("INVALID_TEAM_ID");
  });

  it("requireEmailVerificationOnInvitation gates accept, reject and get", async () => {
    const strict = await startTestServer({ options: { organization: { requireEmailVerificationOnInvitation: true } } });
    try {
      const { owner } = await createOrganization(strict);
      const email = freshEmail();
      const recipient = await signUp(strict, { email });
      const inv = (await owner.browser.post("/organization/invite-member", { email, role: "member" })).body;
      const accept = await recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id });
      expect(accept.status).toBe(403);
      expect(accept.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
      const get = await recipient.browser.get(`/organization/get-invitation?id=${inv.id}`);
      expect(get.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
      await strict.auth.database.db
        .updateTable("user")
        .set({ emailVerified: true })
        .where("id", "=", recipient.user.id)
        .execute();
      expect((await recipient.browser.post("/organization/accept-invitation", { invitationId: inv.id })).status).toBe(
        200,
      );
      expect(strict.loggedErrors).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe("listing invitations", () => {
  it("list-invitations: all statuses for owners and admins in one query; members and strangers are refused", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const admin = await joinAs(server, organizationId, "admin");
    const member = await joinAs(server, organizationId, "member");
    const a = (await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" })).body;
    const b = (await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "owner" })).body;
    await owner.browser.post("/organization/cancel-invitation", { invitationId: a.id });

    // The invitations' mail goes out after their answers: seen on PostgreSQL inside the count below.
    await server.settled();
    await owner.browser.get("/get-session");
    const baseline = server.queryCount();
    await owner.browser.get("/get-session");
    const sessionQueries = server.queryCount() - baseline;
    const before = server.queryCount();
    const list = await owner.browser.get("/organization/list-invitations");
    expect(server.queryCount() - before - sessionQueries).toBe(1);
    expect(list.body.map((i: any) => [i.id, i.status])).toEqual([
      [b.id, "pending"],
      [a.id, "canceled"],
    ]);
    // Admins do not see invitations that grant the owner role.
    const adminList = await admin.browser.get(`/organization/list-invitations?organizationId=${organizationId}`);
    expect(adminList.body.map((i: any) => i.id)).toEqual([a.id]);
    const byMember = await member.browser.get("/organization/list-invitations");
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS");
    const stranger = await signUp(server);
    const noOrg = await stranger.browser.get("/organization/list-invitations");
    expect(noOrg.body).toEqual({ code: "ORGANIZATION_ID_REQUIRED", message: "Organization ID is required" });
    const foreign = await stranger.browser.get(`/organization/list-invitations?organizationId=${organizationId}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
      message: "You are not a member of this organization",
    });
    // The owner sees them in get-full-organization too; a plain member sees none.
    expect((await owner.browser.get("/organization/get-full-organization")).body.invitations).toHaveLength(2);
    expect((await member.browser.get("/organization/get-full-organization")).body.invitations).toEqual([]);
  });

  it("list-user-invitations: the caller's pending ones, verified email required; get-invitation needs a session", async () => {
    const { owner, organization } = await createOrganization(server, { name: "Listing" });
    const email = freshEmail();
    const recipient = await signUp(server, { email });
    const inv = (await owner.browser.post("/organization/invite-member", { email, role: "member" })).body;
    const unverified = await recipient.browser.get("/organization/list-user-invitations");
    expect(unverified.status).toBe(403);
    expect(unverified.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
    await markVerified(recipient.user.id);
    const list = await recipient.browser.get("/organization/list-user-invitations");
    expect(list.body).toEqual([
      expect.objectContaining({ id: inv.id, organizationName: "Listing", organizationSlug: organization.slug }),
    ]);
    expect((await recipient.browser.get(`/organization/list-user-invitations?email=${email}`)).status).toBe(400);
    const anonymous = await server.browser().get(`/organization/get-invitation?id=${inv.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "NOT_AUTHENTICATED", message: "Not authenticated" });
    expect((await owner.browser.get(`/organization/get-invitation?id=${inv.id}`)).status).toBe(200);
  });
});

describe("invitation-preview: the link's page, signed out (issue 31)", () => {
  it("names the organization, inviter, role and address of a pending invitation, to anyone holding its id", async () => {
    const { owner } = await createOrganization(server, { name: "Preview Co" });
    const email = freshEmail();
    const inv = (await owner.browser.post("/organization/invite-member", { email, role: "admin" })).body;
    const preview = await server.browser().get(`/organization/invitation-preview?id=${inv.id}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      id: inv.id,
      organizationName: "Preview Co",
      inviterName: "Owner",
      role: "admin",
      email,
      expiresAt: inv.expiresAt,
    });
    // Nothing more than that: no organization id or slug, no inviter address.
    expect(Object.keys(preview.body).sort()).toEqual([
      "email",
      "expiresAt",
      "id",
      "inviterName",
      "organizationName",
      "role",
    ]);
  });

  it("answers one INVITATION_NOT_FOUND for unknown, answered, withdrawn and expired ids, and 400 for bad input", async () => {
    const { owner } = await createOrganization(server);
    const invite = async () =>
      (await owner.browser.post("/organization/invite-member", { email: freshEmail(), role: "member" })).body;
    const anyone = server.browser();
    const notFound = async (id: string) => {
      const answer = await anyone.get(`/organization/invitation-preview?id=${encodeURIComponent(id)}`);
      return [answer.status, answer.body.code];
    };
    const gone = [400, "INVITATION_NOT_FOUND"];
    expect(await notFound("x".repeat(32))).toEqual(gone);
    const canceled = await invite();
    expect((await owner.browser.post("/organization/cancel-invitation", { invitationId: canceled.id })).status).toBe(
      200,
    );
    expect(await notFound(canceled.id)).toEqual(gone);
    const expired = await invite();
    await server.auth.database.db
      .updateTable("invitation")
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() as never })
      .where("id", "=", expired.id)
      .execute();
    expect(await notFound(expired.id)).toEqual(gone);
    expect(await notFound("y".repeat(5000))).toEqual(gone);
    for (const query of ["", "?id="]) {
      const answer = await anyone.get(`/organization/invitation-preview${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });
});

describe("who invited a member", () => {
  it("accept-invitation records the inviter; list-members and get-full-organization return their id", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const inviter = await joinAs(server, organizationId, "admin", "Ines Inviter");
    const email = freshEmail();
    const inv = (await inviter.browser.post("/organization/invite-member", { email, role: "member" })).body;
    const invitee = await signUp(server, { email, name: "Ivo Invitee" });
    expect((await invitee.browser.post("/organization/accept-invitation", { invitationId: inv.id })).status).toBe(200);

    const expected = { [owner.user.id]: null, [inviter.user.id]: null, [invitee.user.id]: inviter.user.id };
    const invitedBy = (members: any[]) => Object.fromEntries(members.map((m) => [m.userId, m.invitedBy]));
    const page = await owner.browser.get(`/organization/list-members?organizationId=${organizationId}`);
    expect(invitedBy(page.body.members)).toEqual(expected);
    // The filtered page is another statement: it carries the column too.
    const filtered = await owner.browser.get(
      `/organization/list-members?organizationId=${organizationId}&filterField=role&filterOperator=eq&filterValue=member`,
    );
    expect(invitedBy(filtered.body.members)).toEqual({ [invitee.user.id]: inviter.user.id });
    const full = await owner.browser.get(`/organization/get-full-organization?organizationId=${organizationId}`);
    expect(invitedBy(full.body.members)).toEqual(expected);

    // The inviter's account goes: the member stays, invited by nobody we can name.
    await server.auth.database.db.deleteFrom("user").where("id", "=", inviter.user.id).execute();
    const after = await owner.browser.get(`/organization/list-members?organizationId=${organizationId}`);
    expect(invitedBy(after.body.members)).toEqual({ [owner.user.id]: null, [invitee.user.id]: null });
  });
});
