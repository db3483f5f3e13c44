import { describe, expect, it } from "vitest";
import type { AuditScope, AuthContext } from "../context.js";
import type { ChangeHook, Webhooks } from "../webhooks/outbox.js";
import { auditedContext, auditPending, noteAudit } from "./trail.service.js";

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

/** Just what auditedContext touches: the outbox's view is the hook it was handed. */
function instanceContext(): AuthContext {
  const webhooks = { hearing: (hook: ChangeHook) => ({ hook }) as unknown as Webhooks };
  return { webhooks, instance: {} } as unknown as AuthContext;
}

describe("an audited request's context", () => {
  it("carries its scope; the instance's context stays without one", () => {
    const base = instanceContext();
    const mine = scope();
    const audited = auditedContext(base, mine);
    expect(audited.audit).toBe(mine);
    expect(base.audit).toBeUndefined();
    expect(audited.instance).toBe(base.instance);
    noteAudit(base, { subjectId: "nobody" });
    noteAudit(audited, { subjectId: "user-1", details: { field: "name" } });
    expect(mine).toMatchObject({ subjectId: "user-1", details: { field: "name" } });
  });

  it("keeps two requests' scopes apart, and its outbox view asks its own", () => {
    const base = instanceContext();
    const [a, b] = [scope(), scope()];
    const [first, second] = [auditedContext(base, a), auditedContext(base, b)];
    a.written = true;
    expect([auditPending(first), auditPending(second), auditPending(base)]).toEqual([false, true, false]);
    const hookOf = (ctx: AuthContext) => (ctx.webhooks as unknown as { hook: ChangeHook }).hook;
    expect([hookOf(first).pending(), hookOf(second).pending()]).toEqual([false, true]);
  });
});
