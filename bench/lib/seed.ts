import { BASE_PATH } from "./servers.js";

/** A seeded user and the cookies of the session the bench holds for them. */
export interface SeededUser {
  email: string;
  password: string;
  /** A `Cookie` header value: every cookie the last sign-up/sign-in set. */
  cookie: string;
}

export const SEED_PASSWORD = "bench password 0123456789";

/** Turns Set-Cookie lines into a Cookie header (attributes dropped, expired cookies left out). */
export function cookieHeader(setCookies: string[]): string {
  const pairs: string[] = [];
  for (const line of setCookies) {
    const pair = line.split(";")[0] ?? "";
    if (/;\s*max-age=0\b/i.test(line) || pair.endsWith("=")) continue;
    pairs.push(pair);
  }
  return pairs.join("; ");
}

/** POSTs JSON the way the application does: same-origin, with an Origin header. */
export async function postJson(origin: string, path: string, body: unknown, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", origin };
  if (cookie) headers.cookie = cookie;
  return fetch(`${origin}${BASE_PATH}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

async function expectOk(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${what} failed: ${response.status} ${text}`);
  return cookieHeader(response.headers.getSetCookie());
}

export async function signUp(origin: string, email: string): Promise<SeededUser> {
  const response = await postJson(origin, "/sign-up/email", { name: "Bench User", email, password: SEED_PASSWORD });
  return { email, password: SEED_PASSWORD, cookie: await expectOk(response, `sign-up of ${email}`) };
}

/** A further session for an existing user. */
export async function signIn(origin: string, email: string, password = SEED_PASSWORD): Promise<string> {
  return expectOk(await postJson(origin, "/sign-in/email", { email, password }), `sign-in of ${email}`);
}

/** Runs `task` for 0..count-1, `concurrency` at a time (password hashing makes seeding CPU-bound). */
export async function inParallel<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** `count` users signed up over HTTP, each holding one session. */
export async function seedUsers(origin: string, count: number, prefix: string): Promise<SeededUser[]> {
  return inParallel(count, 4, (i) => signUp(origin, `${prefix}-${i}@bench.example`));
}
