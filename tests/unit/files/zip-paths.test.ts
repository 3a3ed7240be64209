import { describe, expect, it } from "vitest";
import { sanitizeSegment, zipPaths } from "~/features/files/zip-paths";

describe("zip entry names", () => {
  it("turns traversal, separators and control characters into harmless names", () => {
    expect(sanitizeSegment("..")).toBe("_");
    expect(sanitizeSegment(".")).toBe("_");
    expect(sanitizeSegment("...")).toBe("_");
    expect(sanitizeSegment("../../etc/passwd")).toBe(".._.._etc_passwd");
    expect(sanitizeSegment("C:\\Windows\\system32")).toBe("C:_Windows_system32");
    expect(sanitizeSegment("/absolute")).toBe("_absolute");
    expect(sanitizeSegment("tab\there\u0000\u001b[31m")).toBe("tabhere[31m");
    expect(sanitizeSegment("   ")).toBe("_");
    expect(sanitizeSegment("Café")).toBe("Café".normalize("NFC"));
  });

  it("builds nested paths under the downloaded folder and tells duplicates apart", () => {
    const paths = zipPaths(
      "root",
      [
        { id: "root", parentId: null, label: "Top" },
        { id: "a", parentId: "root", label: "Docs" },
        { id: "b", parentId: "root", label: "docs" },
        { id: "c", parentId: "a", label: "Deep" },
      ],
      [
        { id: "1", folderId: "root", name: "report.pdf" },
        { id: "2", folderId: "root", name: "Report.pdf" },
        { id: "3", folderId: "root", name: "Docs" },
        { id: "4", folderId: "c", name: "x.tar.gz" },
        { id: "5", folderId: "c", name: "x.tar.gz" },
        { id: "6", folderId: "root", name: ".env" },
        { id: "7", folderId: "root", name: ".env" },
        { id: "8", folderId: "elsewhere", name: "stray.txt" },
      ],
    );
    expect(paths.folders.get("root")).toBe("");
    expect(paths.folders.get("a")).toBe("Docs");
    expect(paths.folders.get("b")).toBe("docs (2)");
    expect(paths.folders.get("c")).toBe("Docs/Deep");
    expect(paths.files.get("1")).toBe("report.pdf");
    expect(paths.files.get("2")).toBe("Report (2).pdf");
    expect(paths.files.get("3")).toBe("Docs (3)"); // "docs (2)" is the second folder
    expect(paths.files.get("4")).toBe("Docs/Deep/x.tar.gz");
    expect(paths.files.get("5")).toBe("Docs/Deep/x.tar (2).gz");
    expect(paths.files.get("6")).toBe(".env");
    expect(paths.files.get("7")).toBe(".env (2)");
    expect(paths.files.has("8")).toBe(false);
  });

  it("places children whose rows arrive before their parents", () => {
    const paths = zipPaths(
      "root",
      [
        { id: "child", parentId: "parent", label: "Child" },
        { id: "parent", parentId: "root", label: "Parent" },
      ],
      [],
    );
    expect(paths.folders.get("child")).toBe("Parent/Child");
  });
});
