import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import { dialectUnderTest } from "./helpers/database.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// The hot statements on a PostgreSQL database of moderate size (tens of thousands of rows per table,
// seeded with generate_series and analyzed): each one, as the service sends it with its values,
// must reach the big tables through an index. A Seq Scan here grows with the table (issue 36).

const BIG_TABLES = [
  "user",
  "account",
  "session",
  "organization",
  "member",
  "invitation",
  "verification",
  "attemptCounter",
  "twoFactorChallenge",
  "outbox",
  "webhookDelivery",
  "knownDevice",
  "auditTrail",
];

interface Statement {
  text: string;
  values: unknown[];
}

/** Every statement the pg driver sends while `during` runs (the pool's clients are pg.Client). */
async function statementsSent(during: () => Promise<void>): Promise<Statement[]> {
  const sent: Statement[] = [];
  // pg's query has a dozen overloads; this only reads its arguments and passes them on.
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === "string" ? config : config?.text;
    if (typeof text === "string") {
      sent.push({ text, values: (typeof config === "string" ? values : config.values) ?? [] });
    }
    return query.apply(this, args);
  };
  try {
    await during();
  } finally {
    prototype.query = query;
  }
  return sent;
}

/** A node of EXPLAIN (FORMAT JSON)'s plan tree. */
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/** The big tables `plan` reads with a sequential scan. */
function seqScans(plan: PlanNode): string[] {
  const table = plan["Relation Name"] ?? "";
  const here = plan["Node Type"] === "Seq Scan" && BIG_TABLES.includes(table) ? [table] : [];
  return [...here, ...(plan.Plans ?? []).flatMap(seqScans)];
}

describe.skipIf(dialectUnderTest() !== "postgres")("the plan of every hot statement uses an index", () => {
  let server: TestServer;
  let client: pg.Client;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let organizationId: string;
  beforeAll(async () => {
    server = await startTestServer({
      options: { housekeeping: { batchSize: 500 }, audit: { enabled: true }, securityActivity: { enabled: true } },
    });
    client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    owner = await signUp(server, { verified: true });
    const created = await owner.browser.post("/organization/create", { name: "Hot", slug: "hot" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    organizationId = created.body.id;
    await seed(owner.user.id, organizationId);
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await server?.close();
  });

  async function seed(ownerId: string, organizationId: string): Promise<void> {
    const started = Date.now();
    const statements = [
      `insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
       select 'u-' || g, 'Seeded ' || g, 'u' || g || '@seed.example', true, now() - g * interval '1 second', now()
       from generate_series(1, 20000) g`,
      `insert into account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
       select 'a-' || g, 'u-' || g, 'credential', 'u-' || g, 'x', now(), now() from generate_series(1, 20000) g`,
      // Two sessions per user, one in ten expired.
      `insert into session (id, "tokenHash", "userId", "expiresAt", "createdAt", "updatedAt")
       select 's-' || g, 'h-' || g, 'u-' || (g % 20000 + 1),
              now() + case when g % 10 = 0 then interval '-1 hour' else interval '1 day' end, now(), now()
       from generate_series(1, 40000) g`,
      `insert into organization (id, name, slug, "createdAt")
       select 'o-' || g, 'Org ' || g, 'org-' || g, now() from generate_series(1, 2000) g`,
      // Every seeded user in one organization of 2,000, and 3,000 of them in the owner's too.
      `insert into member (id, "organizationId", "userId", role, "createdAt")
       select 'm-' || g, 'o-' || (g % 2000 + 1), 'u-' || g, 'member', now() - g * interval '1 second'
       from generate_series(1, 20000) g`,
      `insert into member (id, "organizationId", "userId", role, "createdAt")
       select 'mo-' || g, '${organizationId}', 'u-' || g, 'member', now() + g * interval '1 second'
       from generate_series(1, 3000) g`,
      // The owner in 50 more organizations.
      `insert into member (id, "organizationId", "userId", role, "createdAt")
       select 'mh-' || g, 'o-' || g, '${ownerId}', 'admin', now() from generate_series(1, 50) g`,
      `insert into invitation (id, "organizationId", email, role, status, "inviterId", "expiresAt", "createdAt")
       select 'i-' || g, 'o-' || (g % 2000 + 1), 'invitee' || g || '@seed.example', 'member',
              case when g % 4 = 0 then 'pending' else 'accepted' end, 'u-' || (g % 20000 + 1),
              now() + interval '2 days', now()
       from generate_series(1, 10000) g`,
      `insert into verification (id, identifier, value, "expiresAt", "createdAt", "updatedAt")
       select 'v-' || g, 'reset-password:' || md5(g::text), 'u-' || (g % 20000 + 1),
              now() + case when g % 10 = 0 then interval '-1 hour' else interval '1 hour' end, now(), now()
       from generate_series(1, 20000) g`,
      `insert into "attemptCounter" (key, attempts, "expiresAt")
       select 'k-' || g, 1, now() + case when g % 10 = 0 then interval '-1 hour' else interval '1 hour' end
       from generate_series(1, 10000) g`,
      `insert into "twoFactorChallenge" ("tokenHash", "userId", "rememberMe", "expiresAt", "createdAt")
       select 't-' || g, 'u-' || g, false,
              now() + case when g % 10 = 0 then interval '-1 hour' else interval '1 hour' end, now()
       from generate_series(1, 5000) g`,
      `insert into outbox (id, "to", subject, text, html, kind, "nextAttemptAt", "sentAt", "createdAt")
       select 'x-' || g, 'u' || g || '@seed.example', 's', 't', 'h', 'verification', now() - interval '9 days',
              case when g % 100 = 0 then null else now() - (g % 10) * interval '1 day' end, now() - interval '9 days'
       from generate_series(1, 10000) g`,
      `insert into "webhookDelivery" (id, url, "eventType", payload, "nextAttemptAt", "deliveredAt", "failedAt", "createdAt")
       select 'w-' || g, 'https://hooks.example/x', 'user.created', '{}', now() - interval '40 days',
              case when g % 50 = 0 then null else now() - (g % 10) * interval '1 day' end,
              case when g % 50 = 0 then now() - (g % 40) * interval '1 day' end, now() - interval '40 days'
       from generate_series(1, 10000) g`,
      `insert into "knownDevice" (id, "userId", "deviceHash", "createdAt", "lastSeenAt")
       select 'd-' || g, 'u-' || g, md5(g::text), now() - interval '500 days',
              now() - case when g % 10 = 0 then interval '401 days' else interval '1 day' end
       from generate_series(1, 20000) g`,
      // A trail of 30,000 entries: account events naming no organization, and entries of the 2,000
      // organizations (the owner's among them), numbered below the chain the service appends to.
      `insert into "auditTrail" (seq, id, "createdAt", action, outcome, "actorType", "actorId", "subjectId",
              "organizationId", details, hash)
       select -g, 'e-' || g, now() - g * interval '1 second',
              case when g % 3 = 0 then 'organization.updated' else 'user.sign_in' end, 'success', 'user',
              'u-' || (g % 20000 + 1), 'u-' || (g % 20000 + 1),
              case when g % 3 = 0 then (case when g % 3000 = 0 then '${organizationId}' else 'o-' || (g % 2000 + 1) end) end,
              null, md5(g::text)
       from generate_series(1, 30000) g`,
      "analyze",
    ];
    for (const statement of statements) await client.query(statement);
    // A few seconds on an idle machine; the file runs in well under 20.
    console.log(`index-plans: seeded and analyzed in ${Date.now() - started} ms`);
  }

  it("get-session, list-sessions, organization/list, list-members (first and deep page), active member, sign-in, verification by identifier, and every pruning statement", async () => {
    const routes: [string, () => Promise<{ status: number }>][] = [
      ["sign-in", () => server.browser().post("/sign-in/email", { email: owner.email, password: owner.password })],
      ["get-session", () => owner.browser.get("/get-session")],
      ["list-sessions", () => owner.browser.get("/list-sessions")],
      ["organization/list", () => owner.browser.get("/organization/list")],
      ["set-active", () => owner.browser.post("/organization/set-active", { organizationId })],
      ["list-members, first page", () => owner.browser.get("/organization/list-members?limit=100")],
      ["list-members, deep page", () => owner.browser.get("/organization/list-members?limit=100&offset=2500")],
      ["get-active-member", () => owner.browser.get("/organization/get-active-member")],
      ["verification by identifier", () => server.browser().get("/reset-password/no-such-token")],
      [
        "organization's trail",
        () => owner.browser.get(`/organization/list-audit-trail?organizationId=${organizationId}`),
      ],
      [
        "organization's trail by actor",
        () => owner.browser.get(`/organization/list-audit-trail?organizationId=${organizationId}&actorId=u-30`),
      ],
      ["security activity", () => owner.browser.get("/security-activity")],
    ];
    const failures: string[] = [];
    for (const [name, call] of routes) {
      let status = 0;
      const sent = await statementsSent(async () => {
        status = (await call()).status;
        await server.settled();
      });
      expect([name, status < 400 || name === "verification by identifier"]).toEqual([name, true]);
      const { checked, found } = await unindexed(name, sent);
      expect([name, checked > 0]).toEqual([name, true]);
      failures.push(...found);
    }
    const pruning = await statementsSent(async () => {
      expect((await sweepExpired(server.auth.context))?.sessions).toBe(4000);
    });
    expect(pruning.filter((s) => /^delete/i.test(s.text)).length).toBeGreaterThanOrEqual(7);
    failures.push(...(await unindexed("housekeeping", pruning)).found);
    expect(failures).toEqual([]);
  }, 60_000);

  it("an organization's trail is read through the organization index, which leaves out account events", async () => {
    const sent = await statementsSent(async () => {
      const page = await owner.browser.get(`/organization/list-audit-trail?organizationId=${organizationId}`);
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBeGreaterThanOrEqual(10);
    });
    const statement = sent.find((s) => /from "auditTrail" where "organizationId" =/.test(s.text));
    expect(statement, JSON.stringify(sent.map((s) => s.text))).toBeDefined();
    const { rows } = await client.query(`explain (format json) ${statement!.text}`, statement!.values);
    expect(JSON.stringify(rows[0]["QUERY PLAN"])).toContain('"Index Name":"auditTrail_organizationId_partial_idx"');
    const { rows: defined } = await client.query(
      `select indexdef from pg_indexes where indexname = 'auditTrail_organizationId_partial_idx'`,
    );
    expect(defined[0].indexdef).toContain('WHERE ("organizationId" IS NOT NULL)');
  });

  it("a deep list-members page skips members in the index and reads only its own page's users", async () => {
    // An offset page used to join every member before the offset to its user (10^4 user lookups for
    // a page of 100 at offset 9,900), so its time grew with the user table, not just the offset.
    const sent = await statementsSent(async () => {
      const page = await owner.browser.get(
        `/organization/list-members?organizationId=${organizationId}&limit=100&offset=2500`,
      );
      expect(page.status).toBe(200);
      expect(page.body.members).toHaveLength(100);
      expect(page.body.total).toBe(3001);
    });
    const statement = sent.find((s) => /"member"/.test(s.text) && s.values.includes(2500));
    expect(statement, JSON.stringify(sent.map((s) => s.text))).toBeDefined();
    const { rows } = await client.query(`explain (analyze, format json) ${statement!.text}`, statement!.values);
    const userRows = (plan: PlanNode): number =>
      (plan["Relation Name"] === "user" ? (plan["Actual Rows"] ?? 0) * (plan["Actual Loops"] ?? 1) : 0) +
      (plan.Plans ?? []).reduce((sum, child) => sum + userRows(child), 0);
    expect(userRows(rows[0]["QUERY PLAN"][0].Plan)).toBeLessThanOrEqual(100);
  });

  /** The statements of `sent` that touch a big table, and plan a sequential scan of one. */
  async function unindexed(name: string, sent: Statement[]): Promise<{ checked: number; found: string[] }> {
    const found: string[] = [];
    let checked = 0;
    for (const { text, values } of sent) {
      if (!/^\s*(select|insert|update|delete|with)\b/i.test(text)) continue;
      if (!BIG_TABLES.some((table) => text.includes(`"${table}"`))) continue;
      checked += 1;
      const { rows } = await client.query(`explain (format json) ${text}`, values);
      const scans = seqScans(rows[0]["QUERY PLAN"][0].Plan);
      if (scans.length > 0) found.push(`${name}: Seq Scan on ${scans.join(", ")}: ${text}`);
    }
    return { checked, found };
  }
});
