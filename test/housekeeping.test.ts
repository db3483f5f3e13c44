import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import { dialectUnderTest } from "./helpers/database.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

describe("housekeeping", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("deletes expired sessions and one-time values, and keeps live ones", async () => {
    const live = await signUp(server);
    const { db } = server.auth.database;
    const now = server.clock.now();
    await db
      .insertInto("verification")
      .values([
        {
          id: "old",
          identifier: "x:old",
          value: "v",
          expiresAt: new Date(now.getTime() - 1000),
          createdAt: now,
          updatedAt: now,
        },
        {
          id: "new",
          identifier: "x:new",
          value: "v",
          expiresAt: new Date(now.getTime() + 60_000),
          createdAt: now,
          updatedAt: now,
        },
      ])
      .execute();
    const stale = await signUp(server);
    await db
      .updateTable("session")
      .set({ expiresAt: new Date(now.getTime() - 1000) })
      .where("userId", "=", stale.user.id)
      .execute();

    const swept = await sweepExpired(server.auth.context);
    expect(swept).toMatchObject({ sessions: 1, verifications: 1 });
    expect((await db.selectFrom("verification").select("id").execute()).map((r) => r.id)).toEqual(["new"]);
    expect((await live.browser.get("/get-session")).body).not.toBeNull();
  });

  it.skipIf(dialectUnderTest() !== "postgres")(
    "runs on several instances at once: each row is deleted once, nothing fails",
    async () => {
      const other = await startTestServer({ shareDatabaseWith: server });
      try {
        const { db } = server.auth.database;
        const now = server.clock.now();
        const expired = Array.from({ length: 40 }, (_, i) => ({
          id: `race-${i}`,
          identifier: `x:race-${i}`,
          value: "v",
          expiresAt: new Date(now.getTime() - 1000),
          createdAt: now,
          updatedAt: now,
        }));
        await db.insertInto("verification").values(expired).execute();
        const results = await Promise.all([
          sweepExpired(server.auth.context),
          sweepExpired(other.auth.context),
          sweepExpired(server.auth.context),
        ]);
        expect(results.reduce((sum, r) => sum + r.verifications, 0)).toBe(40);
        expect(await db.selectFrom("verification").select("id").where("id", "like", "race-%").execute()).toEqual([]);
      } finally {
        await other.close();
      }
    },
  );
});
