import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RECIPIENT_CAP } from "../src/server/email/outbox.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// Mail bombing: links anyone can make us send to an address are capped per address, whatever the
// route or the requester's address, and the answers do not change when the cap drops a mail.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

const mailTo = async (to: string) =>
  (await server.auth.database.db.selectFrom("outbox").select(["kind"]).where("to", "=", to).execute()).map(
    (r) => r.kind,
  );

describe("per-recipient mail caps", () => {
  it("reset and verification links to one address: at most 3 per 15 minutes, over every route, same answers", async () => {
    const { email } = await signUp(server);
    const before = (await mailTo(email)).length;
    const answers = new Set<string>();
    const routes = ["/request-password-reset", "/forget-password", "/send-verification-email"];
    for (let i = 0; i < 9; i++) {
      const res = await server.browser().post(routes[i % 3]!, { email, redirectTo: "/reset" });
      answers.add(`${res.status} ${JSON.stringify(res.body)}`);
    }
    // The answers never varied per route beyond the route's own answer.
    expect(answers.size).toBeLessThanOrEqual(routes.length);
    expect((await mailTo(email)).length - before).toBe(RECIPIENT_CAP - before);

    // A quarter of an hour later the address can receive links again.
    server.clock.advance(15 * 60 + 1);
    await server.browser().post("/request-password-reset", { email, redirectTo: "/reset" });
    expect((await mailTo(email)).filter((kind) => kind === "reset-password").length).toBeGreaterThan(1);
  });
});
