import { createHash } from "node:crypto";
import { escapeHtml } from "../html-escape.js";
import { htmlPage } from "./html-page.js";

/**
 * OAuth 2.0 Form Post Response Mode: the authorization response as a page whose form POSTs the
 * fields to the client's redirect URI and submits itself. The page allows that one script (by
 * hash) and forms to that origin only; nothing is cached or sent as a referrer.
 */

const SUBMIT = "document.forms[0].submit();";
const SUBMIT_HASH = `'sha256-${createHash("sha256").update(SUBMIT).digest("base64")}'`;

function formTarget(url: string): string {
  const parsed = new URL(url);
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : parsed.protocol;
}

export function formPostPage(action: string, fields: Record<string, string>): Response {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>Continue</title></head><body>` +
    `<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>` +
    `<script>${SUBMIT}</script></body></html>`;
  return htmlPage(html, `default-src 'none'; script-src ${SUBMIT_HASH}; form-action ${formTarget(action)}`);
}
