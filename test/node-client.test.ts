import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookieKeepingFetch, createAuthClient, createNodeAuthClient } from "../src/client/index.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/** Issue 30, item 7: the browser client from Node, against a real server (docs/client.md). */
let server: TestServer;
let counter = 0;
const uniqueEmail = () => `node-${Date.now().toString(36)}-${counter++}@example.com`;
const PASSWORD = "sturdy-pass-123";

beforeAll(async () => {
  server = await startTestServer({ options: { organization: { enabled: true } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("createNodeAuthClient", () => {
  it("signs up, keeps the session between calls, changes state and signs out", async () => {
    const auth = createNodeAuthClient({ baseURL: server.origin });
    const email = uniqueEmail();
    const signedUp = await auth.signUp.email({ name: "Node", email, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    expect([...auth.cookies.keys()]).toContain("gatehouse.session_token");
    const session = await auth.getSession();
    expect(session.data?.user.email).toBe(email);
    // A state-changing call with the session cookie carries the Origin the service requires.
    expect((await auth.updateUser({ name: "Renamed" })).error).toBeNull();
    expect((await auth.getSession()).data?.user.name).toBe("Renamed");
    expect((await auth.signOut()).error).toBeNull();
    expect(auth.cookies.has("gatehouse.session_token")).toBe(false);
    expect((await auth.getSession()).data).toBeNull();
    auth.dispose();
  });

  it("says which origin is refused, and the plain client without one is refused", async () => {
    const foreign = createNodeAuthClient({ baseURL: server.origin, origin: "https://elsewhere.example" });
    const refused = await foreign.signUp.email({ name: "X", email: uniqueEmail(), password: PASSWORD });
    expect(refused.error).toMatchObject({ code: "INVALID_ORIGIN", status: 403 });
    const plain = createAuthClient({ baseURL: server.origin, focusTarget: null });
    const missing = await plain.signUp.email({ name: "X", email: uniqueEmail(), password: PASSWORD });
    expect(missing.error).toMatchObject({ code: "MISSING_OR_NULL_ORIGIN", status: 403 });
  });

  it("cookieKeepingFetch keeps what is set and forgets what is cleared", async () => {
    const keeping = cookieKeepingFetch();
    const email = uniqueEmail();
    const signUp = await keeping(`${server.origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.origin },
      body: JSON.stringify({ name: "Jar", email, password: PASSWORD }),
    });
    expect(signUp.status).toBe(200);
    expect(keeping.cookieHeader()).toContain("gatehouse.session_token=");
    const session = await (await keeping(`${server.origin}/api/auth/get-session`)).json();
    expect(session.user.email).toBe(email);
    await keeping(`${server.origin}/api/auth/sign-out`, { method: "POST", headers: { origin: server.origin } });
    expect(keeping.cookies.size).toBe(0);
  });
});
