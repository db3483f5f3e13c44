/**
 * The hot read machinery, the one import the rest of the store uses: statements compiled once and
 * run straight on the connection (precompiled, direct), PostgreSQL's prepared and coalesced reads,
 * the caller's session statement that routes extend with their rows, and kept members pages.
 * Services reach it only through store/caller-reads.ts and the table modules.
 */
export {
  type CallerPolicyRow,
  type CallerRows,
  type CallerRulesRows,
  type CallerSessionRead,
  type CallerSessionRows,
  type callerSessionQuery,
  jsonRows,
  parseJsonRows,
  readCallerList,
  readWithCallerSession,
} from "./caller-session.js";
export { type DirectReader, hasDirectReader, readRowsDirect, registerDirectReader } from "./direct.js";
export { type KnownPage, MemberPageCache, type MembersReply } from "./member-pages.js";
export { postgresReader, type QueryPool, type ReadOptions } from "./postgres-reads.js";
export { readOnePrecompiled, readPrecompiled } from "./precompiled.js";
