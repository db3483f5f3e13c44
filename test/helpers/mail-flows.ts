import { setTimeout as sleep } from "node:timers/promises";
import { LOWER_ALPHANUMERIC, randomString } from "../../src/server/crypto/random.js";
import type { CapturedMail, MailCapture } from "./mail.js";
import type { TestServer } from "./server.js";

/** A fresh address per test, so mail from one test never answers another's wait. */
export const uniqueEmail = (label: string) => `${label}-${randomString(8, LOWER_ALPHANUMERIC)}@example.com`;

const matching = (capture: MailCapture, to: string, subject: string) =>
  capture.messages.filter((m) => m.to === to.toLowerCase() && m.subject.includes(subject));

/** The n-th (1-based) mail to `to` whose subject contains `subject`, waiting for it to arrive. */
export async function nthMail(capture: MailCapture, to: string, subject: string, n = 1): Promise<CapturedMail> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const found = matching(capture, to, subject)[n - 1];
    if (found) return found;
    await sleep(20);
  }
  throw new Error(`mail #${n} "${subject}" to ${to} did not arrive`);
}

/** How many such mails arrived once the outbox has delivered everything it had. */
export async function settledCount(server: TestServer, capture: MailCapture, to: string, subject: string) {
  // A delivery ends with the capture's reply to the message, which it sends only once it has parsed
  // and kept the message (receiveMail): what the flush delivered is in the capture already.
  await server.auth.context.mail.flush();
  return matching(capture, to, subject).length;
}

/** The mail's link whose path contains `part`. */
export function linkIn(mail: CapturedMail, part: string): string {
  const link = mail.links.find((l) => l.includes(part));
  if (!link) throw new Error(`no link with "${part}" in mail "${mail.subject}": ${mail.links.join(", ")}`);
  return link;
}

/** The same link with one query parameter replaced or (value null) removed. */
export function withParam(link: string, name: string, value: string | null): string {
  const url = new URL(link);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.toString();
}
