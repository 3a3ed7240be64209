import { formatBytes } from "~/features/files/files.constants";
import { searchOwnReceivePages } from "~/features/receive/receive.queries.server";
import { searchOwnSecrets } from "~/features/secrets/secrets.queries.server";
import { searchOwnShareLinks } from "~/features/sharing/sharing.queries.server";
import { listSpacesWithMatches, scopeToken, searchFileIndex } from "./search.queries.server";
import type { SearchHit, SearchRequest, SearchSource, SearchSpace } from "./search.server";

/**
 * THE one place a module makes its items findable (issue 36, docs/architecture.md "The shell"):
 * each source names the kinds it returns and searches only what the member may open. A later
 * module (forms, signatures, workflows) adds one entry here and one kind in search.constants.ts.
 */

/** The spaces a search covers, after the place filter. */
function spacesInPlace(request: SearchRequest): SearchSpace[] {
  const place = request.query.place;
  if (!place) return request.spaces;
  return request.spaces.filter((space) => (place === "personal" ? !space.isRoom : space.id === place));
}

/** An FTS5 query: every word in a file's name or text (the last one as a prefix while it is typed), in the given spaces. */
export function ftsMatch(request: Pick<SearchRequest, "terms" | "prefixLast">, spaceIds: readonly string[]): string {
  const words = request.terms.map((term, index) => `"${term}"${index === request.terms.length - 1 && request.prefixLast ? "*" : ""}`).join(" AND ");
  return `{name body} : (${words}) AND scope : (${spaceIds.map((id) => `"${scopeToken(id)}"`).join(" OR ")})`;
}

/** Only a member's own things (share links, receive pages, secrets): nothing for "others", nothing in a room. */
function ownOnly(request: SearchRequest): boolean {
  return request.query.owner !== "others" && (!request.query.place || request.query.place === "personal");
}

const filesAndFolders: SearchSource = {
  kinds: ["file", "folder"],
  async search(ctx, request) {
    const candidates = spacesInPlace(request);
    if (candidates.length === 0) return [];
    // Which rooms hold matches decides whose authority is asked (rooms without one cost nothing).
    const anyRoom = candidates.some((space) => space.isRoom);
    const byScope = new Map(candidates.map((space) => [scopeToken(space.id), space]));
    const withMatches = anyRoom ? (await listSpacesWithMatches(ctx.db, ftsMatch(request, candidates.map((space) => space.id)))).map((scope) => byScope.get(scope)).filter((space) => space !== undefined) : candidates;
    const allowed = [...(await request.readableSpaces(withMatches.map((space) => space.id)))];
    if (allowed.length === 0) return [];
    const kind = request.query.kind;
    const rows = await searchFileIndex(ctx.db, {
      match: ftsMatch(request, allowed),
      allowedSpaceIds: allowed,
      itemType: kind === "file" || kind === "folder" ? kind : undefined,
      owner: request.query.owner === "anyone" ? null : { userId: request.userId, mine: request.query.owner === "me" },
      since: request.since,
      limit: request.query.limit,
    });
    const spaces = new Map(request.spaces.map((space) => [space.id, space]));
    return rows.map((row): SearchHit => {
      const space = spaces.get(row.spaceId);
      const inRoom = space?.isRoom ?? false;
      return {
        kind: row.itemType,
        id: row.id,
        title: row.name,
        href: row.itemType === "file" ? `/files/${row.id}` : inRoom ? `/dataroom/${row.spaceId}/folders/${row.id}` : `/folders/${row.id}`,
        place: space?.name ?? null,
        detail: row.itemType === "file" && row.size !== null ? formatBytes(row.size) : null,
        snippet: row.snippet.includes("\u0001") ? row.snippet : null,
        updatedAt: row.updatedAt,
      };
    });
  },
};

const rooms: SearchSource = {
  kinds: ["room"],
  async search(_ctx, request) {
    if (request.query.owner !== "anyone" || request.query.place === "personal") return [];
    const words = request.terms.map((term) => term.toLocaleLowerCase());
    return spacesInPlace(request)
      .filter((space) => space.isRoom && (!request.since || (space.updatedAt ?? 0) >= request.since.getTime()))
      .filter((space) => words.every((word) => space.name.toLocaleLowerCase().includes(word)))
      .slice(0, request.query.limit)
      .map((space) => ({ kind: "room", id: space.id, title: space.name, href: `/dataroom/${space.id}`, place: null, detail: space.archived ? "Archived" : null, snippet: null, updatedAt: space.updatedAt }));
  },
};

const shareLinks: SearchSource = {
  kinds: ["share-link"],
  async search(ctx, request) {
    const personal = request.spaces.find((space) => !space.isRoom);
    if (!personal || !ownOnly(request)) return [];
    const rows = await searchOwnShareLinks(ctx.db, { spaceId: personal.id, terms: request.terms, since: request.since, limit: request.query.limit });
    const now = ctx.now().getTime();
    return rows.map((row) => ({
      kind: "share-link",
      id: row.id,
      title: row.name,
      href: `/share-links/${row.id}`,
      place: personal.name,
      detail: row.revokedAt ? "Revoked" : row.expiresAt && row.expiresAt.getTime() <= now ? "Expired" : `Shares a ${row.targetType}`,
      snippet: null,
      updatedAt: row.updatedAt.getTime(),
    }));
  },
};

const receivePages: SearchSource = {
  kinds: ["receive-page"],
  async search(ctx, request) {
    if (!ownOnly(request)) return [];
    const rows = await searchOwnReceivePages(ctx.db, { userId: request.userId, terms: request.terms, since: request.since, limit: request.query.limit });
    return rows.map((row) => ({ kind: "receive-page", id: row.id, title: row.title, href: `/receive-pages/${row.id}`, place: null, detail: null, snippet: null, updatedAt: row.updatedAt.getTime() }));
  },
};

const secrets: SearchSource = {
  kinds: ["secret"],
  async search(ctx, request) {
    if (!ownOnly(request)) return [];
    const rows = await searchOwnSecrets(ctx.db, { userId: request.userId, terms: request.terms, since: request.since, limit: request.query.limit });
    return rows.map((row) => ({
      kind: "secret",
      id: row.id,
      title: row.label,
      href: `/secrets/${row.id}`,
      place: null,
      detail: row.hasContent ? "Not opened yet" : "Opened or ended",
      snippet: null,
      updatedAt: row.createdAt.getTime(),
    }));
  },
};

export const SEARCH_SOURCES: readonly SearchSource[] = [filesAndFolders, rooms, shareLinks, receivePages, secrets];
