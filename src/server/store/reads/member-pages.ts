import { LRUCache } from "lru-cache";
import type { MemberWithUser } from "../../../contract/models.js";
import type { HitCount } from "../../observability/request-metrics.js";
import type { WithTimes } from "../values.js";

/** A page of list-members as it is answered: timestamps as the ISO text the reply sends. */
export interface MembersReply {
  members: WithTimes<MemberWithUser, string>[];
  total: number;
}

/** A page of list-members this instance has sent, and the member-list version it was read at. */
export interface KnownPage {
  organizationId: string;
  /** memberListVersion.version when the page was read (migration 0014). */
  version: number;
  /** The page as answered, frozen. */
  reply: MembersReply;
}

/** How much of its memory an instance gives to pages: about 500 pages of 50 members. */
const PAGE_BYTES = 8 * 1024 * 1024;
/** How many namings of an organization (a session's active one, a slug, an id) it remembers. */
const NAMINGS = 10_000;

/**
 * list-members' unfiltered first pages, answered again while the organization's member-list version
 * holds: the statement that reads the caller's membership checks that version and leaves the page
 * out when it matches, so every instance stays right with nothing to tell the others.
 */
export class MemberPageCache {
  readonly #pages = new LRUCache<string, KnownPage>({
    maxSize: PAGE_BYTES,
    sizeCalculation: (page) => approximateBytes(page.reply) + page.organizationId.length,
  });
  readonly #organizationOf = new LRUCache<string, string>({ max: NAMINGS });

  /** `counts`: where pages answered again (hits) and read anew (misses) are counted, for the metrics. */
  constructor(readonly counts: HitCount = { hits: 0, misses: 0 }) {}

  /** The page held for this naming of an organization and this page (sort, direction, size), if any. */
  known(naming: string, page: string): KnownPage | undefined {
    const organizationId = this.#organizationOf.get(naming);
    return organizationId === undefined ? undefined : this.#pages.get(`${organizationId} ${page}`);
  }

  /** After a read: which organization the naming meant, and the page as read (null version: not kept). */
  remember(
    naming: string,
    page: string,
    read: { organizationId: string; version: number | null; reply: MembersReply },
  ) {
    this.#organizationOf.set(naming, read.organizationId);
    if (read.version === null) return;
    const key = `${read.organizationId} ${page}`;
    if (this.#pages.get(key)?.version !== read.version) {
      this.#pages.set(key, { organizationId: read.organizationId, version: read.version, reply: read.reply });
    }
  }
}

/** About what a page costs to hold: its text and a fixed share for each member's objects. */
function approximateBytes(reply: MembersReply): number {
  let bytes = 64;
  for (const member of reply.members) {
    bytes += 160 + member.id.length + member.userId.length + member.role.length + member.createdAt.length;
    bytes += member.user.name.length + member.user.email.length + (member.user.image?.length ?? 0);
  }
  return bytes;
}
