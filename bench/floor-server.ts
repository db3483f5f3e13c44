/**
 * The floor reference: a bare node:http server doing the least any server must do to answer each read
 * route the bench measures. It verifies the same signed cookie (URL-decode, HMAC-SHA256 via
 * unsignValue), hashes the token, runs ONE prepared, indexed SQLite statement that both finds the
 * session and reads what the route answers, and returns it as JSON. No framework, no query builder, no
 * validation beyond that. The service is measured against this, route by route.
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

type Row = Record<string, string | number | null>;
type Params = { hash: string; now: string };
const db = new Database(databasePath);
db.pragma("journal_mode = WAL");

/** The caller's live session, joined in each statement below as `s` (@hash: token digest, @now). */
const LIVE = "s.tokenHash = @hash AND s.expiresAt > @now";

const getSessionStatement = db.prepare<[Params], Row>(
  `SELECT s.id, s.userId, s.expiresAt, s.createdAt, s.updatedAt, s.ipAddress, s.userAgent,
          s.activeOrganizationId, s.activeTeamId, s.impersonatedBy,
          u.name AS u_name, u.email AS u_email, u.emailVerified AS u_emailVerified, u.image AS u_image,
          u.isAnonymous AS u_isAnonymous, u.createdAt AS u_createdAt, u.updatedAt AS u_updatedAt
     FROM session s JOIN user u ON u.id = s.userId
    WHERE ${LIVE}`,
);
const listSessionsStatement = db.prepare<[Params], Row>(
  `SELECT o.* FROM session s JOIN session o ON o.userId = s.userId AND o.expiresAt > @now
    WHERE ${LIVE} ORDER BY o.createdAt DESC`,
);
const listAccountsStatement = db.prepare<[Params], Row>(
  `SELECT a.id, a.providerId, a.accountId, a.userId, a.createdAt, a.updatedAt, a.scope
     FROM session s JOIN account a ON a.userId = s.userId WHERE ${LIVE}`,
);
const listOrganizationsStatement = db.prepare<[Params], Row>(
  `SELECT o.* FROM session s JOIN member m ON m.userId = s.userId JOIN organization o ON o.id = m.organizationId
    WHERE ${LIVE} ORDER BY m.createdAt`,
);
const MEMBER_COLUMNS = `m.id, m.organizationId, m.userId, m.role, m.teamId, m.createdAt,
          u.name AS u_name, u.email AS u_email, u.image AS u_image`;
const activeMemberStatement = db.prepare<[Params], Row>(
  `SELECT ${MEMBER_COLUMNS} FROM session s
     JOIN member m ON m.organizationId = s.activeOrganizationId AND m.userId = s.userId
     JOIN user u ON u.id = m.userId WHERE ${LIVE}`,
);
const listMembersStatement = db.prepare<[Params], Row>(
  `SELECT ${MEMBER_COLUMNS}, count(*) OVER () AS total FROM session s
     JOIN member m ON m.organizationId = s.activeOrganizationId
     JOIN user u ON u.id = m.userId WHERE ${LIVE} ORDER BY m.createdAt LIMIT 100`,
);

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** The session token from the signed cookie, or null. */
function callerToken(cookieHeader: string | undefined): string | null {
  const raw = readCookie(cookieHeader, COOKIE);
  if (!raw) return null;
  try {
    return unsignValue(decodeURIComponent(raw), secret!);
  } catch {
    return null;
  }
}

const session = (row: Row, token: string) => ({
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
});

const member = (row: Row) => ({
  id: row.id,
  organizationId: row.organizationId,
  userId: row.userId,
  role: row.role,
  teamId: row.teamId,
  createdAt: row.createdAt,
  user: { id: row.userId, name: row.u_name, email: row.u_email, image: row.u_image },
});

/** Each route: its answer from the token digest and the token (undefined: 401). */
const routes: Record<string, (p: Params, token: string) => unknown> = {
  "/get-session": (p, token) => {
    const row = getSessionStatement.get(p);
    if (!row) return null;
    return {
      session: session(row, token),
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
  },
  "/list-sessions": (p) =>
    listSessionsStatement.all(p).map((row) => ({ ...session(row, row.id as string), current: false })),
  "/list-accounts": (p) =>
    listAccountsStatement.all(p).map((row) => ({
      id: row.id,
      provider: row.providerId,
      providerId: row.providerId,
      accountId: row.accountId,
      userId: row.userId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      scopes: row.scope ? String(row.scope).split(",") : [],
    })),
  "/organization/list": (p) => listOrganizationsStatement.all(p),
  "/organization/get-active-member": (p) => {
    const row = activeMemberStatement.get(p);
    return row ? member(row) : undefined;
  },
  "/organization/list-members": (p) => {
    const rows = listMembersStatement.all(p);
    return { members: rows.map(member), total: rows[0]?.total ?? 0 };
  },
};

const server = createServer((req, res) => {
  const url = req.url ?? "/";
  const path = url.slice("/api/auth".length).split("?")[0]!;
  if (path === "/ok") return send(res, 200, { ok: true });
  const route = routes[path];
  if (!route) return send(res, 404, { code: "NOT_FOUND" });
  const token = callerToken(req.headers.cookie);
  const reply = token
    ? route({ hash: sha256Base64Url(token), now: new Date().toISOString() }, token)
    : path === "/get-session"
      ? null
      : undefined;
  if (reply === undefined) return send(res, 401, { code: "UNAUTHORIZED" });
  send(res, 200, reply);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
