import { formatBytes } from "~/features/files/files.constants";
import { searchOwnFormsStatement, type FormSearchRow } from "~/features/forms/forms.queries.server";
import { searchOwnReceivePagesStatement, type ReceivePageSearchRow } from "~/features/receive/receive.queries.server";
import { searchOwnSecretsStatement, type SecretSearchRow } from "~/features/secrets/secrets.queries.server";
import { ENVELOPE_STATUS_LABELS } from "~/features/signatures/signatures.constants";
import { searchOwnSignaturesStatement, type SignatureSearchRow } from "~/features/signatures/signatures.queries.server";
import { searchOwnShareLinksStatement, type ShareLinkSearchRow } from "~/features/sharing/sharing.queries.server";
import type { SearchHit } from "./search.constants";
import { fileHitsStatement, type FileHitRow, type SearchScope } from "./search.queries.server";
import type { SearchRequest, SearchSource } from "./search.types";

/**
 * THE one place a module makes its items findable (issue 36, docs/architecture.md "The shell"):
 * each source names the kinds it returns, gives its reads as statements for the search's one D1
 * batch, and turns their rows into hits, only ever of what the member may open. A later module
 * (forms, signatures, workflows) adds one entry here and its kind in search.constants.ts.
 */

/** The words as an FTS5 expression: each quoted (no operator can be smuggled in), all required, the last a prefix while it is typed. */
export function ftsWords(request: Pick<SearchRequest, "terms" | "prefixLast">): string {
  return request.terms.map((term, index) => `"${term}"${index === request.terms.length - 1 && request.prefixLast ? "*" : ""}`).join(" AND ");
}

/** Only a member's own things (share links, receive pages, secrets): nothing for "others", nothing when a room is the place. */
function ownOnly(request: SearchRequest): boolean {
  return request.query.owner !== "others" && (!request.query.place || request.query.place === "personal");
}

function fileStatements(request: SearchRequest, excluded: readonly string[] = []) {
  const kind = request.query.kind;
  const common = {
    words: ftsWords(request),
    scope: { userId: request.userId, place: request.query.place ?? null, excluded } satisfies SearchScope,
    itemType: kind === "file" || kind === "folder" ? kind : undefined,
    owner: request.query.owner === "anyone" ? null : { userId: request.userId, mine: request.query.owner === "me" },
    since: request.since,
    limit: request.query.limit,
  };
  // Names first (what people mostly look for), then the text of documents; each newest first.
  return [fileHitsStatement({ ...common, columns: "name" }), fileHitsStatement({ ...common, columns: "name body" })];
}

function mergeFileHits(rows: unknown[][], limit: number): FileHitRow[] {
  const seen = new Set<string>();
  const merged: FileHitRow[] = [];
  for (const row of rows.flat() as FileHitRow[]) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    merged.push(row);
  }
  return merged.slice(0, limit);
}

const filesAndFolders: SearchSource = {
  kinds: ["file", "folder"],
  statements: (request) => fileStatements(request),
  async read(request, rows, reading) {
    let hits = mergeFileHits(rows, request.query.limit);
    // The room authority decides for the rooms on this page; when it keeps someone out of one (a
    // guest without view, an ended access, an address or 2FA rule), the page is read again without it.
    const allowed = await reading.readableSpaces(hits.map((hit) => hit.spaceId));
    const denied = [...new Set(hits.map((hit) => hit.spaceId))].filter((spaceId) => !allowed.has(spaceId));
    if (denied.length > 0) {
      const again = mergeFileHits(await reading.run(fileStatements(request, denied)), request.query.limit);
      const readable = await reading.readableSpaces(again.map((hit) => hit.spaceId));
      hits = again.filter((hit) => readable.has(hit.spaceId));
    }
    return hits.map((row): SearchHit => {
      const space = reading.spaces.get(row.spaceId);
      return {
        kind: row.itemType,
        id: row.id,
        title: row.name,
        href: row.itemType === "file" ? `/files/${row.id}` : space?.isRoom ? `/dataroom/${row.spaceId}/folders/${row.id}` : `/folders/${row.id}`,
        place: space?.name ?? null,
        detail: row.itemType === "file" && row.size !== null ? formatBytes(Number(row.size)) : null,
        snippet: row.snippet.includes("\u0001") ? row.snippet : null,
        updatedAt: Number(row.updatedAt),
      };
    });
  },
};

const rooms: SearchSource = {
  kinds: ["room"],
  statements: () => [],
  async read(request, _rows, reading) {
    if (request.query.owner !== "anyone" || request.query.place === "personal") return [];
    const words = request.terms.map((term) => term.toLocaleLowerCase());
    return [...reading.spaces.values()]
      .filter((space) => space.isRoom && (!request.query.place || space.id === request.query.place))
      .filter((space) => !request.since || (space.updatedAt ?? 0) >= request.since.getTime())
      .filter((space) => words.every((word) => space.name.toLocaleLowerCase().includes(word)))
      .slice(0, request.query.limit)
      .map((space) => ({ kind: "room", id: space.id, title: space.name, href: `/dataroom/${space.id}`, place: null, detail: space.archived ? "Archived" : null, snippet: null, updatedAt: space.updatedAt }));
  },
};

const ownParams = (request: SearchRequest) => ({ userId: request.userId, terms: request.terms, since: request.since, limit: request.query.limit });

const shareLinks: SearchSource = {
  kinds: ["share-link"],
  statements: (request) => (ownOnly(request) ? [searchOwnShareLinksStatement(ownParams(request))] : []),
  async read(request, [rows = []], reading) {
    const personal = [...reading.spaces.values()].find((space) => space.isPersonal);
    const now = request.now.getTime();
    return (rows as ShareLinkSearchRow[]).map((row) => ({
      kind: "share-link",
      id: row.id,
      title: row.name,
      href: `/share-links/${row.id}`,
      place: personal?.name ?? null,
      detail: row.revokedAt ? "Revoked" : row.expiresAt && Number(row.expiresAt) <= now ? "Expired" : `Shares a ${row.targetType}`,
      snippet: null,
      updatedAt: Number(row.updatedAt),
    }));
  },
};

const receivePages: SearchSource = {
  kinds: ["receive-page"],
  statements: (request) => (ownOnly(request) ? [searchOwnReceivePagesStatement(ownParams(request))] : []),
  async read(_request, [rows = []]) {
    return (rows as ReceivePageSearchRow[]).map((row) => ({ kind: "receive-page", id: row.id, title: row.title, href: `/receive-pages/${row.id}`, place: null, detail: null, snippet: null, updatedAt: Number(row.updatedAt) }));
  },
};

const secrets: SearchSource = {
  kinds: ["secret"],
  statements: (request) => (ownOnly(request) ? [searchOwnSecretsStatement(ownParams(request))] : []),
  async read(_request, [rows = []]) {
    return (rows as SecretSearchRow[]).map((row) => ({
      kind: "secret",
      id: row.id,
      title: row.label,
      href: `/secrets/${row.id}`,
      place: null,
      detail: row.hasContent ? "Not opened yet" : "Opened or ended",
      snippet: null,
      updatedAt: Number(row.createdAt),
    }));
  },
};

const forms: SearchSource = {
  kinds: ["form"],
  statements: (request) => (ownOnly(request) ? [searchOwnFormsStatement(ownParams(request))] : []),
  async read(_request, [rows = []]) {
    return (rows as FormSearchRow[]).map((row) => ({ kind: "form", id: row.id, title: row.title, href: `/forms/${row.id}/edit`, place: null, detail: row.status, snippet: null, updatedAt: Number(row.updatedAt) }));
  },
};

/** The member's own documents sent for signature (in their space or a room) and their templates. */
const signatures: SearchSource = {
  kinds: ["signature"],
  statements: (request) => (request.query.owner === "others" ? [] : [searchOwnSignaturesStatement({ ...ownParams(request), place: request.query.place })]),
  async read(_request, [rows = []], reading) {
    return (rows as SignatureSearchRow[]).map((row) => ({
      kind: "signature",
      id: row.id,
      title: row.title,
      href: row.isTemplate ? `/signatures/templates/${row.id}` : `/signatures/${row.id}`,
      place: row.dataroomId ? (reading.spaces.get(row.dataroomId)?.name ?? null) : null,
      detail: row.isTemplate ? "Template" : (ENVELOPE_STATUS_LABELS[row.status as keyof typeof ENVELOPE_STATUS_LABELS] ?? null),
      snippet: null,
      updatedAt: Number(row.updatedAt),
    }));
  },
};

export const SEARCH_SOURCES: readonly SearchSource[] = [filesAndFolders, rooms, shareLinks, receivePages, secrets, forms, signatures];
