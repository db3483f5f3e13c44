import { receiveMail } from "../../test/helpers/mail.js";

/**
 * The churn bench's mail box: a real SMTP server on loopback (test/helpers/mail.ts receiveMail)
 * that the service's outbox delivers to. A bench cycle waits for the link of a mail it caused (`waitForLink`); mail nobody waits for (new-device notices, "password changed") is
 * only counted, and a link nobody claims is dropped after a minute, so a long run holds no mail.
 */
export interface BenchMailbox {
  /** `smtp://127.0.0.1:<port>`, for the service's SMTP_URL. */
  url: string;
  /** Mail received so far, by the first word of its subject's kind (verify, reset, other). */
  received: Record<"verify" | "reset" | "other", number>;
  /** The first link containing `part` in mail to `to` (already here or still to come); null after `timeoutMs`. */
  waitForLink(to: string, part: string, timeoutMs?: number): Promise<string | null>;
  close(): Promise<void>;
}

const KEPT_MS = 60_000;

export async function startBenchMailbox(): Promise<BenchMailbox> {
  /** Links not claimed yet, by `${to} ${part}`, with when they arrived. */
  const unclaimed = new Map<string, { link: string; at: number }[]>();
  const waiters = new Map<string, ((link: string) => void)[]>();
  const received = { verify: 0, reset: 0, other: 0 };
  const parts = ["/verify-email", "/reset-password/"];
  const deliver = (to: string, link: string) => {
    const part = parts.find((p) => link.includes(p));
    if (!part) return false;
    const key = `${to} ${part}`;
    const waiting = waiters.get(key);
    const waiter = waiting?.shift();
    if (waiting && waiting.length === 0) waiters.delete(key);
    if (waiter) waiter(link);
    else unclaimed.set(key, [...(unclaimed.get(key) ?? []), { link, at: Date.now() }]);
    return true;
  };
  const sweeper = setInterval(() => {
    const before = Date.now() - KEPT_MS;
    for (const [key, links] of unclaimed) {
      const kept = links.filter((l) => l.at > before);
      if (kept.length) unclaimed.set(key, kept);
      else unclaimed.delete(key);
    }
  }, KEPT_MS);
  sweeper.unref();

  const { server, port } = await receiveMail(0, ({ to, links }) => {
    const link = links.find((l) => parts.some((p) => l.includes(p)));
    if (link && deliver(to, link)) received[link.includes("/verify-email") ? "verify" : "reset"]++;
    else received.other++;
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitForLink(to, part, timeoutMs = 15_000) {
      const key = `${to.toLowerCase()} ${part}`;
      const here = unclaimed.get(key);
      const first = here?.shift();
      if (here && here.length === 0) unclaimed.delete(key);
      if (first) return Promise.resolve(first.link);
      return new Promise((resolve) => {
        const waiter = (link: string) => {
          clearTimeout(timer);
          resolve(link);
        };
        const timer = setTimeout(() => {
          const waiting = waiters.get(key) ?? [];
          waiting.splice(waiting.indexOf(waiter), 1);
          if (waiting.length === 0) waiters.delete(key);
          resolve(null);
        }, timeoutMs);
        waiters.set(key, [...(waiters.get(key) ?? []), waiter]);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        server.close(() => resolve());
      }),
  };
}
