// Types for pdf-fixture.mjs (plain JavaScript run by Node), for the e2e spec that imports it.
export function makePdf(options: { pages: number; padBytesPerPage?: number; tree?: "flat" | "balanced"; fanout?: number; text?: string }): Buffer;
