import { AuthError } from "../errors.js";
import type { RequestStep } from "./env.js";

export const MAX_BODY_BYTES = 1024 * 1024;

const ALLOWED_JSON = "application/json";
const ALLOWED_FORM = "application/x-www-form-urlencoded";

/**
 * Reads the body once, within MAX_BODY_BYTES, into `c.var.body`: JSON everywhere, form posts where
 * the endpoint takes them (WIRE 1.2). Every malformed body ends here as a 4xx.
 */
export function parseBody(formAllowed: boolean): RequestStep {
  return async (c) => {
    c.set("body", {});
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return;

    const declared = Number(c.req.header("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES) throw new AuthError("PAYLOAD_TOO_LARGE");
    const raw = await readLimited(c.req.raw);
    const contentType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    const allowedTypes = formAllowed ? `${ALLOWED_FORM}, ${ALLOWED_JSON}` : ALLOWED_JSON;

    if (raw.length === 0) return;
    if (!contentType) {
      throw new AuthError("UNSUPPORTED_MEDIA_TYPE", {
        message: `Content-Type is required. Allowed types: ${allowedTypes}`,
      });
    }
    if (contentType === ALLOWED_JSON) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new AuthError("BAD_REQUEST");
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new AuthError("BODY_MUST_BE_AN_OBJECT");
      }
      c.set("body", parsed as Record<string, unknown>);
    } else if (contentType === ALLOWED_FORM && formAllowed) {
      c.set("body", Object.fromEntries(new URLSearchParams(raw)));
    } else {
      throw new AuthError("UNSUPPORTED_MEDIA_TYPE", {
        message: `Content-Type "${contentType.slice(0, 100)}" is not allowed. Allowed types: ${allowedTypes}`,
      });
    }
    return;
  };
}

/** The body as text, refusing it as soon as it passes the limit (a missing Content-Length cannot sneak past). */
export async function readLimited(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new AuthError("PAYLOAD_TOO_LARGE");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
