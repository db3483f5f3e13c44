import { createHmac } from "node:crypto";

import { SECRET_PREFIX } from "../webhook-settings.js";

export { SECRET_PREFIX, secretFormatProblem } from "../webhook-settings.js";

/** The headers of one delivery attempt; `timestamp` is that attempt's time, in whole seconds. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${signature}`,
  };
}
