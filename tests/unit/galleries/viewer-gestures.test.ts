import { describe, expect, it } from "vitest";
import { clampZoom, createViewerGestures, VIEWER, zoomAfterWheel, type PointerSample } from "~/features/galleries/viewer-gestures";

/** Synthetic pointer events: a finger put down, moved and lifted at the given times. */
function gesture(options: { zoomed?: boolean; windowHeight?: number } = {}) {
  const viewer = createViewerGestures({ windowHeight: () => options.windowHeight ?? 800, isZoomed: () => options.zoomed ?? false });
  let clock = 1_000;
  const at = (x: number, y: number, after = 16, pointerId = 1): PointerSample => {
    clock += after;
    return { pointerId, clientX: x, clientY: y, timeStamp: clock };
  };
  const swipe = (dx: number, dy: number) => {
    viewer.down(at(400, 400, 500));
    viewer.move(at(400 + dx / 2, 400 + dy / 2));
    return viewer.up(at(400 + dx, 400 + dy));
  };
  const tap = (x: number, y: number, after: number) => {
    viewer.down(at(x, y, after));
    return viewer.up(at(x + 1, y, 40));
  };
  return { viewer, at, swipe, tap };
}

describe("the photo viewer's gestures", () => {
  it("changes photo on a horizontal swipe beyond 40 px: 39 px stays, 41 px goes, left for the next and right for the previous", () => {
    const { swipe } = gesture();
    expect(swipe(-39, 0)).toEqual({ kind: "none" });
    expect(swipe(-41, 0)).toEqual({ kind: "next" });
    expect(swipe(41, 5)).toEqual({ kind: "previous" });
    expect(swipe(40, 0)).toEqual({ kind: "none" });
  });

  it("does not treat a move under 10 px as a swipe, and follows a longer one as a drag", () => {
    const { viewer, at } = gesture();
    viewer.down(at(100, 100));
    expect(viewer.move(at(109, 100))).toEqual({ kind: "none" });
    expect(viewer.move(at(125, 103))).toEqual({ kind: "drag", dx: 25, dy: 3 });
    expect(viewer.up(at(109, 100))).toEqual({ kind: "none" });
  });

  it("closes on a vertical swipe beyond 14 % of the window's height, and not below it", () => {
    const { swipe } = gesture({ windowHeight: 1000 });
    expect(swipe(0, 139)).toEqual({ kind: "none" });
    expect(swipe(0, 141)).toEqual({ kind: "close" });
    expect(swipe(10, -141)).toEqual({ kind: "close" });
  });

  it("toggles zoom on a double tap within 300 ms, and not on two taps 301 ms apart", () => {
    const { tap } = gesture();
    expect(tap(200, 200, 1000)).toEqual({ kind: "none" });
    // The second tap is lifted 300 ms after the first was: one tap down 260 ms later, up 40 ms after.
    expect(tap(201, 200, 260)).toEqual({ kind: "toggle-zoom", x: 202, y: 200 });
    expect(tap(200, 200, 1000)).toEqual({ kind: "none" });
    expect(tap(200, 200, 261)).toEqual({ kind: "none" });
  });

  it("pans a zoomed photo instead of changing or closing it", () => {
    const { swipe } = gesture({ zoomed: true });
    expect(swipe(-200, 0)).toEqual({ kind: "none" });
    expect(swipe(0, 400)).toEqual({ kind: "none" });
  });

  it("drops a swipe when a second finger comes down (a pinch), and ignores another pointer's lift", () => {
    const { viewer, at } = gesture();
    viewer.down(at(400, 400, 500, 1));
    viewer.down(at(500, 400, 10, 2));
    expect(viewer.up(at(300, 400, 16, 1))).toEqual({ kind: "none" });
    expect(viewer.up(at(500, 400, 16, 2))).toEqual({ kind: "none" });
    viewer.down(at(400, 400, 500, 1));
    expect(viewer.up(at(300, 400, 16, 9))).toEqual({ kind: "none" });
    expect(viewer.up(at(300, 400, 16, 1))).toEqual({ kind: "next" });
  });

  it("zooms with two fingers as far as they spread, between the fitted photo and 6, around the point between them", () => {
    let zoom = 1;
    const viewer = createViewerGestures({ windowHeight: () => 800, isZoomed: () => zoom > 1, zoom: () => zoom });
    const finger = (pointerId: number, x: number): PointerSample => ({ pointerId, clientX: x, clientY: 400, timeStamp: 5_000 });
    viewer.down(finger(1, 350));
    viewer.down(finger(2, 450));
    const spread = viewer.move(finger(2, 650));
    expect(spread).toEqual({ kind: "pinch", zoom: 3, x: 500, y: 400 });
    expect(viewer.move(finger(2, 5_000))).toMatchObject({ kind: "pinch", zoom: VIEWER.maxZoom });
    expect(viewer.move(finger(2, 360))).toMatchObject({ kind: "pinch", zoom: 1 });
    viewer.move(finger(2, 650));
    expect(viewer.up(finger(1, 350))).toEqual({ kind: "none" });
    expect(viewer.up(finger(2, 650))).toEqual({ kind: "none" });
    // The next pinch starts from the zoom the last one left.
    zoom = 3;
    viewer.down(finger(1, 300));
    viewer.down(finger(2, 400));
    expect(viewer.move(finger(2, 500))).toMatchObject({ kind: "pinch", zoom: 6 });
  });

  it("zooms with the wheel up to at least 6 and never below the fitted photo", () => {
    expect(VIEWER.maxZoom).toBeGreaterThanOrEqual(6);
    let zoom = 1;
    for (let turn = 0; turn < 40; turn++) zoom = zoomAfterWheel(zoom, -100);
    expect(zoom).toBe(VIEWER.maxZoom);
    expect(zoomAfterWheel(1, 300)).toBe(1);
    expect(zoomAfterWheel(2, -100)).toBeCloseTo(2.5);
    expect(clampZoom(0.2)).toBe(1);
    expect(VIEWER.slideGapPx).toBe(20);
  });
});
