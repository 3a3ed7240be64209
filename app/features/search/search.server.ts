import { decideInRoom, roomGate } from "~/features/datarooms/room-authority.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { SEARCH_DATE_DAYS, SEARCH_KINDS, searchQuerySchema, type SearchHit, type SearchKind, type SearchQuery } from "./search.constants";

export type { SearchHit };
import { listSearchSpaces } from "./search.queries.server";
import { SEARCH_SOURCES } from "./search.sources.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export type SearchSpace = { id: string; name: string; isRoom: boolean; archived: boolean; updatedAt: number | null };

/** What every source receives: the parsed query, its words, the member's live spaces (read once) and the request's clock. */
export type SearchRequest = {
  userId: string;
  query: SearchQuery;
  terms: string[];
  /** The last word is being typed: match it as a prefix. */
  prefixLast: boolean;
  spaces: SearchSpace[];
  since: Date | null;
  /** The spaces whose contents this member may read now (personal space; rooms the authority lets them view). */
  readableSpaces: (spaceIds: readonly string[]) => Promise<Set<string>>;
};

export type SearchSource = { kinds: readonly SearchKind[]; search: (ctx: ServiceContext, request: SearchRequest) => Promise<SearchHit[]> };

export type SearchResults = { query: SearchQuery; hits: SearchHit[]; places: { id: string; name: string }[]; counts: Partial<Record<SearchKind, number>> };

/** A query's words: letters and digits (FTS5's unicode61 tokenizer splits the same way), at most 12. */
export function searchTerms(q: string): string[] {
  return (q.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/**
 * The member's search (issue 36): files and folders by name and by content, rooms, share links,
 * receive pages and secrets by title, filtered by kind, place, owner and date. Every source sees
 * only what the member may open: their own rows, their spaces, and in a data room only what its
 * authority says they may view now (the same decision every other read uses). Round trips are
 * fixed: one for the member's spaces, then each source's (files: two), whatever they own.
 */
export async function searchWorkspace(ctx: ServiceContext, userId: string, rawQuery: unknown): Promise<SearchResults> {
  const query = parseInput(searchQuerySchema, rawQuery);
  const spaceRows = await listSearchSpaces(ctx.db, userId);
  const spaces: SearchSpace[] = spaceRows
    .filter((row) => !row.roomTrashed)
    .map((row) => ({ id: row.id, name: row.name, isRoom: Boolean(row.isRoom), archived: row.roomArchivedAt !== null, updatedAt: row.roomUpdatedAt ? row.roomUpdatedAt.getTime() : null }));
  const places = spaces.map((space) => ({ id: space.isRoom ? space.id : "personal", name: space.name }));
  const terms = searchTerms(query.q);
  if (terms.length === 0) return { query, hits: [], places, counts: {} };

  const days = SEARCH_DATE_DAYS[query.date];
  const byId = new Map(spaces.map((space) => [space.id, space]));
  const request: SearchRequest = {
    userId,
    query,
    terms,
    prefixLast: !/\s$/.test(query.q) && query.q.length > 0,
    spaces,
    since: days === null ? null : new Date(ctx.now().getTime() - days * DAY_MS),
    readableSpaces: async (spaceIds) => {
      const allowed = new Set<string>();
      await Promise.all(
        spaceIds.map(async (spaceId) => {
          const space = byId.get(spaceId);
          if (!space) return;
          if (!space.isRoom) return void allowed.add(spaceId);
          const decision = await decideInRoom(ctx, spaceId, userId);
          if (decision && decision.permissions.view && !roomGate(ctx, spaceId, decision)) allowed.add(spaceId);
        }),
      );
      return allowed;
    },
  };
  const wanted = query.kind ? [query.kind] : SEARCH_KINDS;
  const sources = SEARCH_SOURCES.filter((source) => source.kinds.some((kind) => wanted.includes(kind)));
  const found = (await Promise.all(sources.map((source) => source.search(ctx, request)))).flat().filter((hit) => wanted.includes(hit.kind));
  const counts: Partial<Record<SearchKind, number>> = {};
  for (const hit of found) counts[hit.kind] = (counts[hit.kind] ?? 0) + 1;
  return { query, hits: found, places, counts };
}
