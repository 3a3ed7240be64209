import type { SQL } from "drizzle-orm";
import type { SearchHit, SearchKind, SearchQuery } from "./search.constants";

export type SearchSpace = { id: string; name: string; isRoom: boolean; isPersonal: boolean; archived: boolean; updatedAt: number | null };

/** What every source receives: the parsed query, its words and the request's clock. */
export type SearchRequest = {
  userId: string;
  query: SearchQuery;
  terms: string[];
  /** The last word is being typed: match it as a prefix. */
  prefixLast: boolean;
  since: Date | null;
  now: Date;
};

/** What a source's rows are read with: the member's live spaces, the rooms they may read now, another batch if it must. */
export type SearchReading = {
  spaces: ReadonlyMap<string, SearchSpace>;
  /** Of these spaces, those whose contents the member may read now: their own, and rooms whose authority lets them view (one call per room and request). */
  readableSpaces: (spaceIds: Iterable<string>) => Promise<Set<string>>;
  /** A second D1 batch, for the rare page that a room's authority thinned out. */
  run: (statements: readonly SQL[]) => Promise<unknown[][]>;
};

/**
 * A module's way into search (registered in search.sources.server.ts): the kinds it returns, its
 * reads as statements that run in ONE D1 batch with every other source's (G11: the round trips do
 * not grow with the modules), and how its rows become hits.
 */
export type SearchSource = {
  kinds: readonly SearchKind[];
  statements: (request: SearchRequest) => SQL[];
  read: (request: SearchRequest, rows: unknown[][], reading: SearchReading) => Promise<SearchHit[]>;
};

