import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { PREVIEW_ERROR_COPY, PreviewError, previewErrorKindFor, type PreviewErrorKind } from "~/features/files/components/preview-error";

// Spec §2 "Preview error display", word for word.
const SPEC: Record<PreviewErrorKind, [string, string]> = {
  loading: ["Failed to Load Preview", "There was a problem loading the preview. Please check your connection and try again."],
  security: ["Security Check Failed", "Unable to verify security requirements. Please ensure you have the necessary permissions."],
  expired: ["Preview Link Expired", "The preview link has expired. Please try refreshing the page."],
  other: ["Something Went Wrong", "An unexpected error occurred while trying to display the preview."],
};

describe("the preview error display", () => {
  it.each(Object.entries(SPEC) as [PreviewErrorKind, [string, string]][])("shows the spec's title and default message for %s", (kind, [title, message]) => {
    render(<PreviewError kind={kind} />);
    const alert = screen.getByRole("alert");
    expect(alert.querySelector("h3")?.textContent).toBe(title);
    expect(alert.textContent).toContain(message);
    expect(PREVIEW_ERROR_COPY[kind]).toEqual({ title, message });
  });

  it("has exactly the four kinds of the spec", () => {
    expect(Object.keys(PREVIEW_ERROR_COPY).sort()).toEqual(["expired", "loading", "other", "security"]);
  });

  it("shows a given message instead of the default one", () => {
    render(<PreviewError kind="other" message="This PDF is protected with a password." />);
    expect(screen.getByRole("alert").textContent).toContain("This PDF is protected with a password.");
    expect(screen.getByRole("alert").textContent).not.toContain(SPEC.other[1]);
  });

  it("offers no Try Again button without a retry handler", () => {
    render(<PreviewError kind="loading" />);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("offers a Try Again button that calls the retry handler", () => {
    const onRetry = vi.fn();
    render(<PreviewError kind="loading" onRetry={onRetry} />);
    fireEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe("which display a failed preview request gets", () => {
  it("treats a network failure and server errors as a loading failure", () => {
    expect(previewErrorKindFor(null)).toBe("loading");
    expect(previewErrorKindFor(500)).toBe("loading");
    expect(previewErrorKindFor(503)).toBe("loading");
  });

  it("treats 401 and 403 as a failed security check", () => {
    expect(previewErrorKindFor(401)).toBe("security");
    expect(previewErrorKindFor(403)).toBe("security");
  });

  it("treats 410 as an expired link", () => {
    expect(previewErrorKindFor(410)).toBe("expired");
  });

  it("treats any other refusal as something that went wrong", () => {
    for (const status of [400, 404, 416, 429]) expect(previewErrorKindFor(status)).toBe("other");
  });
});
