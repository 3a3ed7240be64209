import { describe, expect, it } from "vitest";
import {
  asciiFallbackName,
  contentDisposition,
  decideRange,
  downloadContentType,
  ifRangeAllows,
  matchesIfNoneMatch,
  previewContentType,
} from "~/features/files/content-headers";

describe("reading a Range header", () => {
  it("serves the whole file without a Range header", () => {
    expect(decideRange(null, 100)).toEqual({ kind: "full" });
  });

  it("reads bytes=a-b, bytes=a- and bytes=-n", () => {
    expect(decideRange("bytes=0-9", 100)).toEqual({ kind: "partial", offset: 0, length: 10 });
    expect(decideRange("bytes=90-", 100)).toEqual({ kind: "partial", offset: 90, length: 10 });
    expect(decideRange("bytes=-5", 100)).toEqual({ kind: "partial", offset: 95, length: 5 });
    expect(decideRange("BYTES = 1 - 1", 100)).toEqual({ kind: "partial", offset: 1, length: 1 });
  });

  it("clamps an end or a suffix beyond the file", () => {
    expect(decideRange("bytes=50-1000", 100)).toEqual({ kind: "partial", offset: 50, length: 50 });
    expect(decideRange("bytes=-1000", 100)).toEqual({ kind: "partial", offset: 0, length: 100 });
  });

  it("cannot satisfy a start past the end, an empty suffix, or any range of an empty file", () => {
    expect(decideRange("bytes=100-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(decideRange("bytes=-0", 100)).toEqual({ kind: "unsatisfiable" });
    expect(decideRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores several ranges and headers it cannot read", () => {
    for (const header of ["bytes=0-1,5-6", "bytes=5-1", "bytes=-", "items=0-1", "bytes=a-b", "bytes=99999999999999999999-"]) {
      expect(decideRange(header, 100), header).toEqual({ kind: "full" });
    }
  });
});

describe("validators", () => {
  const etag = '"abc"';

  it("matches If-None-Match by weak comparison, in a list, or with *", () => {
    expect(matchesIfNoneMatch(etag, etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', etag)).toBe(true);
    expect(matchesIfNoneMatch("*", etag)).toBe(true);
    expect(matchesIfNoneMatch('"x"', etag)).toBe(false);
    expect(matchesIfNoneMatch(null, etag)).toBe(false);
  });

  it("honours If-Range only for the current strong tag or the exact date", () => {
    const date = "Wed, 21 Oct 2026 07:28:00 GMT";
    expect(ifRangeAllows(null, etag, date)).toBe(true);
    expect(ifRangeAllows(etag, etag, date)).toBe(true);
    expect(ifRangeAllows('W/"abc"', etag, date)).toBe(false);
    expect(ifRangeAllows('"old"', etag, date)).toBe(false);
    expect(ifRangeAllows(date, etag, date)).toBe(true);
    expect(ifRangeAllows("Thu, 22 Oct 2026 07:28:00 GMT", etag, date)).toBe(false);
  });
});

describe("Content-Disposition (RFC 6266)", () => {
  it("gives an ASCII fallback and a UTF-8 filename*", () => {
    expect(contentDisposition("attachment", "Résumé “final”.pdf")).toBe(
      `attachment; filename="Resume _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%80%9Cfinal%E2%80%9D.pdf`,
    );
    expect(contentDisposition("inline", "report.pdf")).toBe(`inline; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  });

  it("percent-encodes every character outside RFC 8187 attr-char", () => {
    expect(contentDisposition("attachment", "a'b(c)*d;e,f.txt")).toBe(
      `attachment; filename="a'b(c)*d;e,f.txt"; filename*=UTF-8''a%27b%28c%29%2Ad%3Be%2Cf.txt`,
    );
  });

  it("drops quotes, backslashes and control characters from the fallback, and never leaves it empty", () => {
    expect(asciiFallbackName('a"b\\c\r\nd\u0000.txt')).toBe("abcd.txt");
    expect(asciiFallbackName("日本")).toBe("__");
    expect(asciiFallbackName("\r\n")).toBe("download");
    expect(contentDisposition("attachment", "x\r\ny")).not.toMatch(/[\r\n]/);
  });
});

describe("which type a file is served as", () => {
  it("shows media and PDFs as themselves and text formats as UTF-8 text", () => {
    expect(previewContentType("application/pdf")).toBe("application/pdf");
    expect(previewContentType("image/svg+xml")).toBe("image/svg+xml");
    expect(previewContentType("video/mp4")).toBe("video/mp4");
    expect(previewContentType("text/csv")).toBe("text/csv; charset=utf-8");
  });

  it("never previews a type that could run script as itself", () => {
    for (const type of ["text/html", "application/xhtml+xml", "text/xml", "application/xml", "application/rss+xml", "text/javascript", "application/octet-stream", "", "nonsense"]) {
      expect(previewContentType(type), type).toBe("text/plain; charset=utf-8");
    }
  });

  it("downloads with the sniffed type, or octet-stream when there is none", () => {
    expect(downloadContentType("application/pdf")).toBe("application/pdf");
    expect(downloadContentType("")).toBe("application/octet-stream");
    expect(downloadContentType("text/html\r\nX: y")).toBe("application/octet-stream");
  });
});
