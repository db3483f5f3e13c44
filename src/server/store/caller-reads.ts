import type { MemberWithUser, Organization, Session, SessionWithUser, User } from "../../contract/models.js";
import { type AdditionalFields, NO_ADDITIONAL_FIELDS } from "./additional-fields.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import {
  type CallerMembersPage,
  type CallerPageQuery,
  readCallerActiveMember,
  readCallerMembersPage,
} from "./members.js";
import { readCallerOrganizations } from "./organizations.js";
import {
  type CallerRows,
  type CallerRulesRows,
  type CallerSessionRows,
  type MemberPageCache,
  readWithCallerSession,
} from "./reads/index.js";
import { mapSession, readCallerSessionList } from "./sessions.js";
import { type ListedAccount, readCallerAccounts } from "./social-accounts.js";
import { mapUser } from "./users.js";
import { isoTimestamp, toDate, type WithTimes } from "./values.js";

export type { CallerRulesRows, CallerSessionRows };

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

/** The caller's session and user as get-session answers them: timestamps as the row's own text. */
export type SessionWithUserText = { session: WithTimes<Session, string>; user: WithTimes<User, string> };

/** The session found for a token (null: none), the rows it was made from, and the rows read with it. */
export interface FoundCaller<Rows> {
  found: SessionWithUser | null;
  /** The session and user rows as read: get-session answers from them (callerAsText). */
  read: CallerSessionRows | null;
  rows: Rows | undefined;
  /** What organization policy needs of the caller, when the read asked for it. */
  rules?: CallerRulesRows;
}

/** The session and user alone: get-session's single round trip. */
const readCallerSession = readWithCallerSession(
  "only",
  [],
  (base) => base,
  () => undefined,
);

/** The caller's session for a token digest, with the rows `read` names (see caller-session.ts). */
export async function readCaller<R extends CallerRead>(
  db: DB,
  dialect: DialectName,
  tokenHash: string,
  token: string,
  read: R,
  pages: MemberPageCache,
  fields: AdditionalFields = NO_ADDITIONAL_FIELDS,
  rules = false,
): Promise<FoundCaller<RowsOf<R>>> {
  const { caller, rows } = await readRows(db, dialect, tokenHash, read, pages, fields, rules);
  if (!caller) return { found: null, read: null, rows: undefined };
  return {
    rules: caller.rules,
    found: {
      session: mapSession(caller.session, token, toDate, fields.session),
      user: mapUser(caller.user, toDate, fields.user),
    },
    read: caller,
    rows: rows as RowsOf<R>,
  };
}

/** The caller's rows as get-session answers them: each timestamp as the row's own text (isoTimestamp). */
export function callerAsText(
  read: CallerSessionRows,
  token: string,
  fields: AdditionalFields = NO_ADDITIONAL_FIELDS,
): SessionWithUserText {
  return {
    session: mapSession(read.session, token, isoTimestamp, fields.session),
    user: mapUser(read.user, isoTimestamp, fields.user),
  };
}

function readRows(
  db: DB,
  dialect: DialectName,
  tokenHash: string,
  read: CallerRead,
  pages: MemberPageCache,
  fields: AdditionalFields,
  rules: boolean,
): Promise<CallerRows<unknown>> {
  switch (read.rows) {
    case "none":
      return readCallerSession(db, dialect, tokenHash, fields, rules);
    case "sessions":
      return readCallerSessionList(dialect, read.now, fields.session, fields.key)(
        db,
        dialect,
        tokenHash,
        fields,
        rules,
      );
    case "accounts":
      return readCallerAccounts(dialect)(db, dialect, tokenHash, fields, rules);
    case "organizations":
      return readCallerOrganizations(dialect, fields.organization, fields.key)(db, dialect, tokenHash, fields, rules);
    case "activeMember":
      return readCallerActiveMember(read.organizationId)(db, dialect, tokenHash, fields, rules);
    case "membersPage":
      return readCallerMembersPage(dialect, read.page, pages)(db, dialect, tokenHash, fields, rules);
  }
}
