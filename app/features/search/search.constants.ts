import { z } from "zod";

/** How much of a document the index reads and keeps (ADR 028). */
export const SEARCH_LIMITS = {
  /** Characters of text kept per file (about 60 pages of prose). */
  maxChars: 200_000,
  /** PDFs and Word documents are read whole (their readers need the whole file): larger ones are found by name only. */
  maxDocumentBytes: 25 * 1024 * 1024,
  /** A Word document's body XML is inflated up to this size, no further (a ZIP bomb stops here). */
  maxDocxXmlBytes: 20 * 1024 * 1024,
  maxPdfPages: 500,
  /** A text file's first 2 MB. */
  maxTextBytes: 2 * 1024 * 1024,
  /** Files whose text the catch-up job reads in one run. */
  catchUpBatch: 20,
} as const;

/** What a search can find: each is one registered source (search.sources.server.ts). */
export const SEARCH_KINDS = ["file", "folder", "room", "share-link", "receive-page", "secret", "form", "signature"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  file: "Files",
  folder: "Folders",
  room: "Data rooms",
  "share-link": "Share links",
  "receive-page": "Receive pages",
  secret: "Secrets",
  form: "Forms",
  signature: "Signatures",
};

export const SEARCH_DATES = ["any", "7d", "30d", "365d"] as const;
export type SearchDate = (typeof SEARCH_DATES)[number];
export const SEARCH_DATE_LABELS: Record<SearchDate, string> = { any: "Any time", "7d": "Past 7 days", "30d": "Past 30 days", "365d": "Past year" };
export const SEARCH_DATE_DAYS: Record<SearchDate, number | null> = { any: null, "7d": 7, "30d": 30, "365d": 365 };

export const SEARCH_OWNERS = ["anyone", "me", "others"] as const;
export type SearchOwner = (typeof SEARCH_OWNERS)[number];
export const SEARCH_OWNER_LABELS: Record<SearchOwner, string> = { anyone: "Anyone", me: "Me", others: "Others" };

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_PAGE_SIZE = 20;
/** The palette's quick results. */
export const SEARCH_QUICK_SIZE = 8;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** A search, as the /search page's address and the API take it. */
export const searchQuerySchema = z.object({
  // Not trimmed: a space after the last word says the word is finished (no prefix match).
  q: z
    .string()
    .max(SEARCH_QUERY_MAX, `Search for at most ${SEARCH_QUERY_MAX} characters.`)
    .default(""),
  kind: z.preprocess(emptyToUndefined, z.enum(SEARCH_KINDS, { message: "Choose what to search: files, folders, data rooms, share links, receive pages, secrets, forms or signatures." }).optional()),
  /** A space: "personal" for the member's own files, or a data room's id. */
  place: z.preprocess(emptyToUndefined, z.union([z.literal("personal"), z.uuid({ message: "That place is not one of your spaces." })]).optional()),
  owner: z.preprocess(emptyToUndefined, z.enum(SEARCH_OWNERS, { message: "Choose whose items to search: anyone, me or others." }).default("anyone")),
  date: z.preprocess(emptyToUndefined, z.enum(SEARCH_DATES, { message: "Choose a time: any time, the past 7 or 30 days, or the past year." }).default("any")),
  limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_SIZE).default(SEARCH_PAGE_SIZE),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** One result, whatever found it: what it is, where it is, where it opens, and the matched words. */
export type SearchHit = {
  kind: SearchKind;
  id: string;
  title: string;
  href: string;
  /** The space it is in ("My files" or a room's name), when it is in one. */
  place: string | null;
  /** A short description: the type and size, a state. */
  detail: string | null;
  /** Text around the matches, each match between \u0001 and \u0002 (rendered as <mark>, never as HTML). */
  snippet: string | null;
  updatedAt: number | null;
};

