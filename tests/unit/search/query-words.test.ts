import { describe, expect, it } from "vitest";
import { documentXmlText } from "~/features/search/docx-text.server";
import { normaliseText, readableKind } from "~/features/search/extract-text.server";
import { searchTerms } from "~/features/search/search.server";
import { ftsWords } from "~/features/search/search.sources.server";

describe("a search's words", () => {
  it("are letters and digits only, so nothing typed becomes FTS5 syntax", () => {
    const terms = searchTerms('budget" OR scope : * NEAR(x) -draft');
    expect(terms).toEqual(["budget", "OR", "scope", "NEAR", "x", "draft"]);
    expect(ftsWords({ terms, prefixLast: false })).toBe('"budget" AND "OR" AND "scope" AND "NEAR" AND "x" AND "draft"');
  });

  it("match the last word as a prefix while it is typed, and keep accents and other scripts", () => {
    expect(ftsWords({ terms: searchTerms("Zürich ангел qua"), prefixLast: true })).toBe('"Zürich" AND "ангел" AND "qua"*');
    expect(searchTerms("   ")).toEqual([]);
    expect(searchTerms(Array.from({ length: 20 }, (_, index) => `w${index}`).join(" "))).toHaveLength(12);
  });
});

describe("reading a document's text", () => {
  it("knows PDFs, Word documents and text types by their type, or by their name when the browser sent none", () => {
    expect(readableKind("application/pdf", "a.bin")).toBe("pdf");
    expect(readableKind("application/octet-stream", "Deck.PDF")).toBe("pdf");
    expect(readableKind("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a")).toBe("docx");
    expect(readableKind("application/zip", "contract.docx")).toBe("docx");
    expect(readableKind("text/csv; charset=utf-8", "a.csv")).toBe("text");
    expect(readableKind("application/octet-stream", "notes.md")).toBe("text");
    expect(readableKind("image/png", "photo.png")).toBeNull();
    expect(readableKind("application/zip", "archive.zip")).toBeNull();
  });

  it("keeps a Word paragraph a line, a tab a space, and decodes entities", () => {
    const xml = '<w:body><w:p><w:r><w:t>Net</w:t><w:tab/><w:t xml:space="preserve">price &amp; fees &#8364;5</w:t></w:r></w:p><w:p><w:r><w:t>Signed</w:t><w:br/><w:t>&lt;here&gt;</w:t></w:r></w:p></w:body>';
    expect(documentXmlText(xml)).toBe("Net price & fees €5\nSigned\n<here>\n");
  });

  it("drops control characters and folds runs of spaces", () => {
    expect(normaliseText("a\u0000b   c\t\td\n\n  e  ")).toBe("a b c d\ne");
  });
});
