import type { MemberWithUser, Organization, Session } from "../../contract/models.js";
import { type CallerRows, readCallerSession, readCallerSessionList } from "./caller-session.js";
import type { DB } from "./database.js";
import type { DialectName } from "./dialect.js";
import type { MemberPageCache } from "./member-pages.js";
import {
  type CallerMembersPage,
  type CallerPageQuery,
  readCallerActiveMember,
  readCallerMembersPage,
} from "./members.js";
import { readCallerOrganizations } from "./organizations.js";
import { type ListedAccount, readCallerAccounts } from "./social-accounts.js";
import type { WithTimes } from "./values.js";

/** The hot reads' rows keep their timestamps as the ISO text a reply sends (see isoTimestamp). */
export type SessionText = WithTimes<Session, string>;
export type ListedAccountText = WithTimes<ListedAccount, string>;
export type OrganizationText = WithTimes<Organization, string>;
export type MemberWithUserText = WithTimes<MemberWithUser, string>;

/**
 * What a hot read route reads in the statement that finds the caller's session: plain data, so the
 * request names its rows and the store alone decides the SQL.
 */
export type CallerRead =
  | { rows: "none" }
  | { rows: "sessions"; now: Date }
  | { rows: "accounts" }
  | { rows: "organizations" }
  | { rows: "activeMember"; organizationId: string | null }
  | { rows: "membersPage"; page: CallerPageQuery };

/** The rows each read answers with. */
interface RowsByRead {
  none: undefined;
  sessions: SessionText[];
  accounts: ListedAccountText[];
  organizations: OrganizationText[];
  activeMember: MemberWithUserText | null;
  membersPage: CallerMembersPage;
}

export type RowsOf<R extends CallerRead> = RowsByRead[R["rows"]];

/** The caller's session for a token digest, with the rows `read` names (see caller-session.ts). */
export async function readCaller<R extends CallerRead>(
  db: DB,
  dialect: DialectName,
  tokenHash: string,
  token: string,
  read: R,
  pages: MemberPageCache,
): Promise<CallerRows<RowsOf<R>>> {
  const found = await readRows(db, dialect, tokenHash, token, read, pages);
  return found as CallerRows<RowsOf<R>>;
}

function readRows(
  db: DB,
  dialect: DialectName,
  tokenHash: string,
  token: string,
  read: CallerRead,
  pages: MemberPageCache,
): Promise<CallerRows<unknown>> {
  switch (read.rows) {
    case "none":
      return readCallerSession(db, dialect, tokenHash, token);
    case "sessions":
      return readCallerSessionList(dialect, read.now)(db, dialect, tokenHash, token);
    case "accounts":
      return readCallerAccounts(dialect)(db, dialect, tokenHash, token);
    case "organizations":
      return readCallerOrganizations(dialect)(db, dialect, tokenHash, token);
    case "activeMember":
      return readCallerActiveMember(read.organizationId)(db, dialect, tokenHash, token);
    case "membersPage":
      return readCallerMembersPage(dialect, read.page, pages)(db, dialect, tokenHash, token);
  }
}
