import { describe, expect, it } from "vitest";
import { LOCKED_VIEWPORT, lockViewport } from "~/features/galleries/gallery-page-setup";

describe("gallery pages' mobile tweaks", () => {
  const page = () => {
    document.head.innerHTML = '<meta name="viewport" content="width=device-width, initial-scale=1">';
    return document.querySelector<HTMLMetaElement>('meta[name="viewport"]')!;
  };

  it("lock the viewport to no zoom on a phone and give it back on leaving", () => {
    const meta = page();
    const release = lockViewport(document, true);
    expect(meta.content).toBe(LOCKED_VIEWPORT);
    expect(meta.content).toContain("user-scalable=no");
    release();
    expect(meta.content).toBe("width=device-width, initial-scale=1");
  });

  it("leave a desktop's viewport as it is", () => {
    const meta = page();
    lockViewport(document, false)();
    expect(meta.content).toBe("width=device-width, initial-scale=1");
  });
});
