import { describe, expect, it } from "vitest";
import { readShareLinkForm } from "~/features/sharing/share-link-form";

const formOf = (entries: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.append(name, value);
  return form;
};

describe("the share-link form as the API's input", () => {
  it("reads a new link's options: empty fields as none, check boxes, lists split on commas, spaces and lines, the expiry as UTC", () => {
    const input = readShareLinkForm(
      formOf({ name: " For Acme ", password: "blue harbour", expiresAt: "2026-12-31T18:30", maxViews: "25", verifyEmail: "on", allowList: "a@acme.vc, @partner.com\nb@acme.vc", denyList: "", agreement: "  ", download: "watermarked", watermark: "on", slug: "" }),
      "create",
    );
    expect(input).toEqual({
      name: "For Acme",
      password: "blue harbour",
      expiresAt: "2026-12-31T18:30:00Z",
      maxViews: 25,
      requireEmail: true,
      verifyEmail: true,
      allowList: ["a@acme.vc", "@partner.com", "b@acme.vc"],
      denyList: [],
      agreement: null,
      allowDownload: true,
      downloadMode: "watermarked",
      printProtection: false,
      watermark: true,
      slug: null,
      downloadSize: "original",
      showExif: false,
      allowPrints: false,
    });
  });

  it("reads a public gallery's options: web-size downloads, EXIF shown, and its presentation on create only", () => {
    expect(readShareLinkForm(formOf({ download: "web", showExif: "on", allowPrints: "on", presentation: "gallery" }), "create")).toMatchObject({ allowDownload: true, downloadSize: "web", showExif: true, allowPrints: true, presentation: "gallery" });
    expect(readShareLinkForm(formOf({ download: "original", presentation: "gallery" }), "edit")).not.toHaveProperty("presentation");
  });

  it("makes a view-only link from “no download”, and leaves the password alone on edit unless changed or removed", () => {
    expect(readShareLinkForm(formOf({ download: "none", password: "" }), "create")).toMatchObject({ allowDownload: false, downloadMode: "original", password: null, expiresAt: null, maxViews: null });
    expect(readShareLinkForm(formOf({ password: "" }), "edit")).not.toHaveProperty("password");
    expect(readShareLinkForm(formOf({ password: "new secret" }), "edit")).toMatchObject({ password: "new secret" });
    expect(readShareLinkForm(formOf({ password: "ignored", removePassword: "on" }), "edit")).toMatchObject({ password: null });
  });
});
