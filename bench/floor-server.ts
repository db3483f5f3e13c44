/**
 * The floor reference for get-session: a bare node:http server doing the least any server must do to
 * answer it. It verifies the same signed cookie (URL-decode, HMAC-SHA256 via unsignValue), hashes the
 * token, runs one prepared, indexed SQLite join of session and user, and returns them as JSON. No
 * framework, no query builder, no validation beyond that. The service is measured against this.
 *
 * FLOOR_DATABASE (a SQLite file the service migrated and seeded), FLOOR_SECRET, PORT.
 */
import { createServer, type ServerResponse } from "node:http";
import Database from "better-sqlite3";
import { sha256Base64Url } from "../src/server/crypto/digest.js";
import { unsignValue } from "../src/server/crypto/signed-value.js";

const databasePath = process.env.FLOOR_DATABASE;
const secret = process.env.FLOOR_SECRET;
if (!databasePath || !secret) throw new Error("FLOOR_DATABASE and FLOOR_SECRET are required");
const COOKIE = "gatehouse.session_token";

const db = new Database(databasePath);
db.pragma("journal_mode = WAL");
const lookup = db.prepare<[string], Record<string, string | number | null>>(
  `SELECT s.id, s.userId, s.expiresAt, s.createdAt, s.updatedAt, s.ipAddress, s.userAgent,
          s.activeOrganizationId, s.activeTeamId, s.impersonatedBy,
          u.name AS u_name, u.email AS u_email, u.emailVerified AS u_emailVerified, u.image AS u_image,
          u.isAnonymous AS u_isAnonymous, u.createdAt AS u_createdAt, u.updatedAt AS u_updatedAt
     FROM session s JOIN user u ON u.id = s.userId
    WHERE s.tokenHash = ?`,
);

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function send(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function getSession(cookieHeader: string | undefined): unknown {
  const raw = readCookie(cookieHeader, COOKIE);
  if (!raw) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const token = unsignValue(decoded, secret!);
  if (!token) return null;
  const row = lookup.get(sha256Base64Url(token));
  if (!row || Date.parse(row.expiresAt as string) <= Date.now()) return null;
  return {
    session: {
      id: row.id,
      token,
      userId: row.userId,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ipAddress: row.ipAddress,
      userAgent: row.userAgent,
      activeOrganizationId: row.activeOrganizationId,
      activeTeamId: row.activeTeamId,
      impersonatedBy: row.impersonatedBy,
    },
    user: {
      id: row.userId,
      name: row.u_name,
      email: row.u_email,
      emailVerified: row.u_emailVerified === 1,
      image: row.u_image,
      isAnonymous: row.u_isAnonymous === 1,
      createdAt: row.u_createdAt,
      updatedAt: row.u_updatedAt,
    },
  };
}

const server = createServer((req, res) => {
  if (req.url?.endsWith("/ok")) return send(res, { ok: true });
  send(res, getSession(req.headers.cookie));
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
