import { describe, expect, it } from "vitest";
import { OCTET_STREAM, SNIFF_BYTES, sniffContentType, sniffText } from "~/features/files/sniff.server";

const text = (value: string) => new TextEncoder().encode(value);
const fromBase64 = (value: string) => Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
const withHeader = (header: number[], length = 64) => {
  const bytes = new Uint8Array(length);
  bytes.set(header);
  return bytes;
};

describe("sniffing a file's type from its first bytes", () => {
  it("recognises binary formats by their magic numbers, whatever the name says", async () => {
    const png = fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
    expect(await sniffContentType(png, "report.pdf")).toBe("image/png");
    expect(await sniffContentType(text("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n"), "photo.png")).toBe("application/pdf");
    expect(await sniffContentType(withHeader([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]), "a.txt")).toBe("image/jpeg");
    expect(await sniffContentType(withHeader([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), "a.txt")).toBe("image/gif");
  });

  it("calls SVG image/svg+xml and HTML text/html by content, even named .txt or .png", async () => {
    expect(await sniffContentType(text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "x.png")).toBe("image/svg+xml");
    expect(await sniffContentType(text('<?xml version="1.0" encoding="UTF-8"?>\n<!-- made by hand -->\n<svg viewBox="0 0 1 1"/>'), "x.txt")).toBe("image/svg+xml");
    expect(await sniffContentType(text("\uFEFF  <!doctype html><title>x</title>"), "notes.txt")).toBe("text/html");
    expect(await sniffContentType(text("<html><body>hi</body></html>"), "page.md")).toBe("text/html");
    expect(await sniffContentType(text("Some notes\n<script>alert(1)</script>\n"), "notes.md")).toBe("text/html");
    expect(await sniffContentType(text('<?xml version="1.0"?><feed></feed>'), "feed.txt")).toBe("application/xml");
  });

  it("tells plain text kinds apart by content and extension", async () => {
    expect(await sniffContentType(text('{"a": [1, 2]}'), "data.json")).toBe("application/json");
    expect(await sniffContentType(text('{"a": [1, 2]}'), "data.txt")).toBe("application/json");
    expect(await sniffContentType(text("{ not json"), "data.json")).toBe("text/plain");
    expect(await sniffContentType(text("a,b\n1,2\n"), "table.csv")).toBe("text/csv");
    expect(await sniffContentType(text("# Title\n\nText"), "readme.md")).toBe("text/markdown");
    expect(await sniffContentType(text("Grüße, naïve café"), "notes.txt")).toBe("text/plain");
    expect(await sniffContentType(new Uint8Array(0), "empty.txt")).toBe("text/plain");
  });

  it("calls unknown binary data application/octet-stream", async () => {
    const noise = new Uint8Array(SNIFF_BYTES);
    for (let index = 0; index < noise.length; index++) noise[index] = (index * 37 + 11) % 256;
    expect(await sniffContentType(noise, "data.txt")).toBe(OCTET_STREAM);
    expect(await sniffContentType(text("abc\u0000def"), "a.csv")).toBe(OCTET_STREAM);
  });

  it("accepts a UTF-8 character cut in half at the end of the sample", async () => {
    const sample = text(`${"a".repeat(SNIFF_BYTES - 1)}é`).subarray(0, SNIFF_BYTES);
    expect(await sniffContentType(sample, "long.txt", false)).toBe("text/plain");
  });

  it("keeps a JSON prefix JSON when the sample is not the whole file", () => {
    expect(sniffText('{"truncated": [1, 2, 3', "big.json", false)).toBe("application/json");
    expect(sniffText('{"truncated": [1, 2, 3', "big.json", true)).toBe("text/plain");
  });
});
