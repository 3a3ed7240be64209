import { describe, expect, it } from "vitest";
import { csvPreviewRows, decodePreviewText, markdownDocument } from "~/features/files/components/text-preview";

describe("text previews", () => {
  it("leaves out a character cut in half at the end of a truncated read", () => {
    const bytes = new TextEncoder().encode("héllo €");
    const cut = bytes.subarray(0, bytes.length - 1); // the euro sign loses its last byte
    expect(decodePreviewText(cut, true)).toBe("héllo ");
    expect(decodePreviewText(bytes, false)).toBe("héllo €");
  });

  it("keeps a CSV's header, caps its rows and drops a row cut by the byte limit", () => {
    const rows = [["name", "age"], ["a", "1"], ["b", "2"], ["c", "3"]];
    expect(csvPreviewRows(rows, 10, false)).toEqual({ header: ["name", "age"], body: rows.slice(1), isTruncated: false });
    expect(csvPreviewRows(rows, 2, false)).toEqual({ header: ["name", "age"], body: rows.slice(1, 3), isTruncated: true });
    expect(csvPreviewRows(rows, 10, true)).toEqual({ header: ["name", "age"], body: rows.slice(1, 3), isTruncated: true });
  });

  it("wraps rendered Markdown in a document that loads nothing and runs nothing", () => {
    const html = markdownDocument("<h1>Hi</h1>");
    expect(html).toContain("<h1>Hi</h1>");
    expect(html).toContain(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
  });
});
