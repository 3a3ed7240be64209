import { decideInRoom, roomGate } from "~/features/datarooms/room-authority.server";
import type { ServiceContext } from "~/lib/service-context.server";
import { parseInput } from "~/lib/validation";
import { SEARCH_DATE_DAYS, SEARCH_KINDS, searchQuerySchema, type SearchHit, type SearchQuery } from "./search.constants";
import type { SearchReading, SearchRequest } from "./search.types";
import { runSearchBatch, searchSpacesStatement, type SearchSpaceRow } from "./search.queries.server";
import { SEARCH_SOURCES } from "./search.sources.server";

export type { SearchHit };
export type { SearchReading, SearchRequest, SearchSource, SearchSpace } from "./search.types";

const DAY_MS = 24 * 60 * 60 * 1000;

export type SearchResults = { query: SearchQuery; hits: SearchHit[]; places: { id: string; name: string }[] };

/** A query's words: letters and digits (FTS5's unicode61 tokenizer splits the same way), at most 12. */
export function searchTerms(q: string): string[] {
  return (q.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/**
 * The member's search (issue 36, ADR 028): files and folders by name and by content, rooms, share
 * links, receive pages and secrets by title, filtered by kind, place, owner and date. Every source
 * sees only what the member may open: their own rows, their spaces, and in a data room only what its
 * authority says they may view now (the same decision every other read uses). One D1 round trip
 * for the member's spaces and every source together; a second only when a room's authority
 * removed hits from the page.
 */
export async function searchWorkspace(ctx: ServiceContext, userId: string, rawQuery: unknown): Promise<SearchResults> {
  const query = parseInput(searchQuerySchema, rawQuery);
  const terms = searchTerms(query.q);
  const days = SEARCH_DATE_DAYS[query.date];
  const request: SearchRequest = {
    userId,
    query,
    terms,
    prefixLast: !/\s$/.test(query.q),
    since: days === null ? null : new Date(ctx.now().getTime() - days * DAY_MS),
    now: ctx.now(),
  };
  const wanted = query.kind ? [query.kind] : SEARCH_KINDS;
  const sources = terms.length === 0 ? [] : SEARCH_SOURCES.filter((source) => source.kinds.some((kind) => wanted.includes(kind)));
  const planned = sources.map((source) => ({ source, statements: source.statements(request) }));
  const [spaceRows = [], ...rows] = await runSearchBatch(ctx.db, [searchSpacesStatement(userId), ...planned.flatMap((plan) => plan.statements)]);

  const spaces = new Map(
    (spaceRows as SearchSpaceRow[]).map((row) => [row.id, { id: row.id, name: row.name, isRoom: Boolean(row.isRoom), isPersonal: Boolean(row.isPersonal), archived: row.archivedAt !== null, updatedAt: row.roomUpdatedAt === null ? null : Number(row.roomUpdatedAt) }]),
  );
  const places = [...spaces.values()].map((space) => ({ id: space.isPersonal ? "personal" : space.id, name: space.name }));
  const reading: SearchReading = {
    spaces,
    readableSpaces: async (spaceIds) => {
      const allowed = new Set<string>();
      await Promise.all(
        [...new Set(spaceIds)].map(async (spaceId) => {
          const space = spaces.get(spaceId);
          if (!space) return;
          if (!space.isRoom) return void allowed.add(spaceId);
          const decision = await decideInRoom(ctx, spaceId, userId);
          if (decision && decision.permissions.view && !roomGate(ctx, spaceId, decision)) allowed.add(spaceId);
        }),
      );
      return allowed;
    },
    run: (statements) => runSearchBatch(ctx.db, statements),
  };
  let offset = 0;
  const found = await Promise.all(
    planned.map(({ source, statements }) => {
      const own = rows.slice(offset, offset + statements.length);
      offset += statements.length;
      return source.read(request, own, reading);
    }),
  );
  return { query, hits: found.flat().filter((hit) => wanted.includes(hit.kind)), places };
}
