import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sessionWithUserModel, userModel } from "./models.js";
import { reviveDates } from "./reply-dates.js";

const at = "2026-01-02T03:04:05.678Z";

describe("reviveDates", () => {
  it("turns the schema's date positions into Dates and nothing else", () => {
    const schema = z.object({
      when: z.date(),
      maybe: z.date().nullable(),
      list: z.array(z.object({ at: z.date() })),
      note: z.string(),
      meta: z.record(z.string(), z.unknown()).nullable(),
    });
    const revived = reviveDates(schema, {
      when: at,
      maybe: null,
      list: [{ at }],
      note: at,
      meta: { at },
      extra: at,
    }) as Record<string, unknown>;
    expect(revived.when).toEqual(new Date(at));
    expect(revived.maybe).toBeNull();
    expect(revived.list).toEqual([{ at: new Date(at) }]);
    expect([revived.note, revived.meta, revived.extra]).toEqual([at, { at }, at]);
  });

  it("walks nullable models and picks the union member that fits", () => {
    const user = { ...userModel.parse(sample()), createdAt: at, updatedAt: at, banExpires: null };
    const reply = reviveDates(sessionWithUserModel.nullable(), { session: sessionSample(), user });
    expect(sessionWithUserModel.parse(reply).user.createdAt).toEqual(new Date(at));
    expect(reviveDates(sessionWithUserModel.nullable(), null)).toBeNull();
    const union = z.union([z.object({ twoFactorRedirect: z.literal(true) }), z.object({ user: userModel })]);
    expect((reviveDates(union, { user }) as { user: { updatedAt: unknown } }).user.updatedAt).toEqual(new Date(at));
  });
});

function sample() {
  return {
    id: "u",
    name: "A",
    email: "a@example.com",
    emailVerified: true,
    image: null,
    isAnonymous: false,
    role: "user",
    banned: false,
    banReason: null,
    banExpires: null,
    twoFactorEnabled: false,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  };
}

function sessionSample() {
  return {
    id: "s",
    token: "t",
    userId: "u",
    expiresAt: at,
    createdAt: at,
    updatedAt: at,
    ipAddress: null,
    userAgent: null,
    activeOrganizationId: null,
    activeTeamId: null,
    impersonatedBy: null,
  };
}
