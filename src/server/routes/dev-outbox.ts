import type { Hono } from "hono";
import type { AuthEnv } from "../http/env.js";

/**
 * The development mail outbox, read by the application's outbox page: without SMTP, mail stays in
 * the outbox table, and a developer follows its links from there. Never served in production or
 * when mail really leaves the machine (the links are live sign-in and reset tokens).
 */
export function devOutboxRoutes(app: Hono<AuthEnv>): void {
  app.get("/dev/outbox", async (c) => {
    const ctx = c.get("auth");
    if (ctx.mail.transportName !== "development" || process.env.NODE_ENV === "production") {
      return new Response(null, { status: 404 });
    }
    c.header("Cache-Control", "no-store");
    const entries = await ctx.mail.list();
    return c.json(
      entries.map(({ id, to, subject, text, html, kind, createdAt, sentAt }) => ({
        id,
        to,
        subject,
        text,
        html,
        kind,
        createdAt,
        sentAt,
      })),
    );
  });
}
