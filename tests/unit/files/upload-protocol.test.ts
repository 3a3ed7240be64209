import { describe, expect, it } from "vitest";
import { directoryOf, overallProgress, uploadErrorMessage, type UploadItem } from "~/features/files/upload-files";
import { parseRelativePath, parseUploadMetadata, validateFileName } from "~/features/files/uploads.server";
import { AppError } from "~/lib/errors";

const b64 = (value: string) => Buffer.from(value, "utf8").toString("base64");

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.message}`;
    throw error;
  }
  return "accepted";
}

describe("tus Upload-Metadata", () => {
  it("decodes base64 UTF-8 values and keys without values", () => {
    const metadata = parseUploadMetadata(`filename ${b64("Grüße.pdf")},folderId ${b64("abc")}, is_confidential`);
    expect(Object.fromEntries(metadata)).toEqual({ filename: "Grüße.pdf", folderId: "abc", is_confidential: "" });
  });

  it("refuses repeated keys, bad keys and values that are not base64", () => {
    expect(refusal(() => parseUploadMetadata(`a ${b64("1")},a ${b64("2")}`))).toBe('400 Upload-Metadata names "a" twice.');
    expect(refusal(() => parseUploadMetadata("bad key x y"))).toMatch(/^400 /);
    expect(refusal(() => parseUploadMetadata("filename %%%"))).toMatch(/^400 Upload-Metadata: the value of "filename"/);
    expect(refusal(() => parseUploadMetadata(`a ${"x".repeat(9000)}`))).toBe("400 Upload-Metadata is too long.");
  });
});

describe("names and folder paths of uploads", () => {
  it("accepts ordinary names and trims outer spaces", () => {
    expect(validateFileName("  Q3 report (final).pdf ")).toBe("Q3 report (final).pdf");
    expect(validateFileName("x".repeat(255))).toHaveLength(255);
  });

  it("refuses empty names, slashes, control characters and names over 255 characters", () => {
    for (const name of ["", "   ", "a/b", "a\\b", "tab\there", ".", "..", "x".repeat(256)]) expect(refusal(() => validateFileName(name)), name).toMatch(/^400 filename: /);
  });

  it("splits a relative folder path and refuses escapes", () => {
    expect(parseRelativePath("Reports/2026")).toEqual(["Reports", "2026"]);
    expect(parseRelativePath("Reports/")).toEqual(["Reports"]);
    expect(parseRelativePath("")).toEqual([]);
    expect(parseRelativePath(undefined)).toEqual([]);
    for (const path of ["../up", "a/../b", "./a", "/abs", "C:/x", "a\\b", "a//b", "a/\u0001/b", Array.from({ length: 40 }, () => "d").join("/")]) {
      expect(refusal(() => parseRelativePath(path)), path).toMatch(/^400 relativePath: /);
    }
  });
});

describe("the upload panel's helpers", () => {
  const item = (size: number, bytesSent: number, status: UploadItem["status"]): UploadItem => ({ key: String(Math.random()), name: "f", relativePath: "", size, bytesSent, status, error: null });

  it("finds the folder part of a path inside a chosen folder", () => {
    expect(directoryOf("Reports/2026/a.pdf")).toBe("Reports/2026");
    expect(directoryOf("a.pdf")).toBe("");
  });

  it("adds up overall progress, counting finished files as whole", () => {
    expect(overallProgress([item(100, 50, "uploading"), item(300, 0, "done"), item(100, 0, "queued")])).toEqual({ sent: 350, total: 500, percent: 70 });
    expect(overallProgress([]).percent).toBe(100);
  });

  it("shows the server's message of a refusal", () => {
    const response = (status: number, body: string) => ({ getStatus: () => status, getBody: () => body, getHeader: () => undefined, getUnderlyingObject: () => null });
    const refused = Object.assign(new Error("tus: unexpected response"), { originalResponse: response(413, JSON.stringify({ message: "Your Free plan allows 1024 MB of storage per data room." })) });
    expect(uploadErrorMessage(refused)).toBe("Your Free plan allows 1024 MB of storage per data room.");
    expect(uploadErrorMessage(Object.assign(new Error("x"), { originalResponse: response(502, "<html>") }))).toBe("The upload failed (HTTP 502). Please try again.");
    expect(uploadErrorMessage(new Error("network"))).toBe("The upload could not reach the server. Check your connection and press Resume.");
  });
});
