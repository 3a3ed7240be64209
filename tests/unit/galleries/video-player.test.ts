import { afterEach, describe, expect, it, vi } from "vitest";
import { loadVideoPlayer, VIDEO_PLAYER_WARNING } from "~/features/galleries/video-player";

describe("the gallery pages' video player", () => {
  afterEach(() => vi.restoreAllMocks());

  it("only warns that video features may be limited when its code cannot be loaded, and tries again next time", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await expect(loadVideoPlayer(() => Promise.reject(new Error("chunk failed")))).resolves.toBe(false);
    expect(warn).toHaveBeenCalledWith(VIDEO_PLAYER_WARNING, expect.any(Error));
    expect(VIDEO_PLAYER_WARNING).toBe("The video player could not be loaded: video features may be limited.");
    const load = vi.fn(() => Promise.resolve());
    await expect(loadVideoPlayer(load)).resolves.toBe(true);
    // Loaded once: a second gallery page uses the same elements.
    await expect(loadVideoPlayer(load)).resolves.toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
