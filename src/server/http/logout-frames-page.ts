import { createHash } from "node:crypto";
import { escapeHtml } from "../html-escape.js";
import { htmlPage } from "./html-page.js";

/**
 * OpenID Connect Front-Channel Logout 1.0: the page end-session answers with when clients of the
 * ending session asked to be told in the browser. It frames each client's logout page (hidden and
 * sandboxed, so each can clear its own cookies and storage and nothing more) and goes on to `next`
 * once every frame has loaded, or after 2.5 s, whichever comes first. It runs one script (by hash),
 * frames those origins only, and is neither cached nor framed itself.
 */

const CONTINUE = [
  "var total=Infinity,loaded=0,done=false;",
  "function go(){if(!done){done=true;location.replace(document.documentElement.dataset.next)}}",
  'document.addEventListener("load",function(e){if(e.target instanceof HTMLIFrameElement&&++loaded>=total)go()},true);',
  'document.addEventListener("DOMContentLoaded",function(){total=document.querySelectorAll("iframe").length;if(loaded>=total)go()});',
  "setTimeout(go,2500);",
].join("");
const CONTINUE_HASH = `'sha256-${createHash("sha256").update(CONTINUE).digest("base64")}'`;

export function logoutFramesPage(frames: readonly string[], next: string): Response {
  const origins = [...new Set(frames.map((frame) => new URL(frame).origin))].join(" ");
  // Sandboxed: a client's page may run its scripts and clear its own cookies and storage, but not
  // navigate this window (to a page of its choosing, mid-logout) nor open others.
  const iframes = frames.map(
    (frame) =>
      `<iframe hidden title="Signing out" sandbox="allow-scripts allow-same-origin" src="${escapeHtml(frame)}"></iframe>`,
  );
  const html =
    `<!doctype html><html lang="en" data-next="${escapeHtml(next)}"><head><meta charset="utf-8">` +
    `<title>Signing out</title><script>${CONTINUE}</script></head><body>` +
    `<p>Signing you out… <a href="${escapeHtml(next)}">Continue</a></p>${iframes.join("")}</body></html>`;
  return htmlPage(html, `default-src 'none'; script-src ${CONTINUE_HASH}; frame-src ${origins}; form-action 'none'`);
}
