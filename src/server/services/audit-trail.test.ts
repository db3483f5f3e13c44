import { describe, expect, it } from "vitest";
import { type AuditScope, currentAuditScope, runInAuditScope } from "./audit-trail.js";

const scope = (): AuditScope => ({
  action: "user.updated",
  whenChanged: false,
  actorType: "user",
  actorId: null,
  subjectId: null,
  sessionUserId: null,
  sessionOrganizationId: null,
  organizationId: null,
  ipAddress: null,
  userAgent: null,
  requestId: null,
  details: {},
  challenged: false,
  written: false,
});

describe("the audit scope", () => {
  it("reaches the services across awaits, and only inside its run", async () => {
    const mine = scope();
    await runInAuditScope(mine, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentAuditScope()).toBe(mine);
    });
    expect(currentAuditScope()).toBeUndefined();
  });

  it("keeps two overlapping runs apart, and each its own to the end", async () => {
    const [a, b] = [scope(), scope()];
    const seen: unknown[] = [];
    const run = (mine: AuditScope, ms: number) =>
      runInAuditScope(mine, async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        seen.push(currentAuditScope() === mine);
      });
    // The shorter run ends first: the longer one must still see its scope.
    await Promise.all([run(a, 20), run(b, 1)]);
    expect(seen).toEqual([true, true]);
  });
});
