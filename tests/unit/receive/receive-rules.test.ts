import { describe, expect, it } from "vitest";
import { cleanReceivedName, fileRefusal, sniffedTypeFits, uploaderFolderLabel } from "~/features/receive/receive-rules";
import { validateFileName } from "~/features/files/uploads.server";

describe("a receive page's rules for what visitors send", () => {
  it("cleans names from a visitor's computer into names the file manager takes", () => {
    expect(cleanReceivedName("  ..report: Q3/final?.pdf. ")).toBe("report_ Q3_final_.pdf");
    expect(cleanReceivedName("a\u0000b\u001fc<>|*\".txt")).toBe("a_b_c_____.txt");
    expect(cleanReceivedName("Cafe\u0301.txt")).toBe("Café.txt");
    expect(cleanReceivedName("...")).toBe("file");
    expect(cleanReceivedName("", "folder")).toBe("folder");
    const long = cleanReceivedName(`${"x".repeat(400)}.pdf`);
    expect([...long].length).toBe(255);
    expect(long.endsWith(".pdf")).toBe(true);
    for (const raw of ["  ..report: Q3/final?.pdf. ", "..", "con\\trol\t.doc", `${"é".repeat(300)}.txt`]) expect(() => validateFileName(cleanReceivedName(raw))).not.toThrow();
  });

  it("names a person's folder from their name and e-mail, or whichever they gave", () => {
    expect(uploaderFolderLabel("Ada Lovelace", "ada@example.com")).toBe("Ada Lovelace (ada@example.com)");
    expect(uploaderFolderLabel(null, "ada@example.com")).toBe("ada@example.com");
    expect(uploaderFolderLabel("A/B", null)).toBe("A_B");
  });

  it("says why a file is not taken: its type, its size, or that it is empty", () => {
    const rules = { allowedTypes: ["pdf", "docx"], maxFileMb: 5 };
    expect(fileRefusal(rules, { name: "cv.PDF", size: 1000 })).toBeNull();
    expect(fileRefusal(rules, { name: "run.exe", size: 10 })).toBe("“run.exe” is not a type this page takes. It takes PDF, DOCX files.");
    expect(fileRefusal(rules, { name: "big.pdf", size: 5 * 1024 * 1024 + 1 })).toBe("“big.pdf” is larger than this page takes (5 MB a file).");
    expect(fileRefusal(rules, { name: "empty.pdf", size: 0 })).toBe("“empty.pdf” is empty: there is nothing to send.");
    expect(fileRefusal({ allowedTypes: [], maxFileMb: null }, { name: "anything", size: 1 })).toBeNull();
  });

  it("holds a file's content to its extension when the page limits types", () => {
    expect(sniffedTypeFits("cv.pdf", "application/pdf")).toBe(true);
    expect(sniffedTypeFits("cv.pdf", "text/plain")).toBe(false);
    expect(sniffedTypeFits("letter.docx", "application/zip")).toBe(true);
    expect(sniffedTypeFits("photo.jpg", "image/png")).toBe(false);
    expect(sniffedTypeFits("notes.txt", "text/plain")).toBe(true);
    expect(sniffedTypeFits("drawing.dwg", "application/octet-stream")).toBe(true);
  });
});
