/** Comments on a room's files (issue 20): limits shared by the server and the comment form. */
export const COMMENT_MAX_LENGTH = 5_000;
export const COMMENT_MENTIONS_MAX = 20;
/** A file holds at most this many comments (replies included); the file page shows them all. */
export const FILE_COMMENTS_MAX = 1_000;
/** Threads per page of /dataroom/{id}/comments. */
export const THREADS_PAGE_SIZE = 50;
export const THREAD_FILTERS = { open: "Open", resolved: "Resolved", all: "All", mentions: "Mentioning me" } as const;
/** Comments (each may e-mail the people it mentions) a member may write in 15 minutes (S28). */
export const COMMENTS_PER_WINDOW = 60;
export const COMMENT_WINDOW_MS = 15 * 60_000;
