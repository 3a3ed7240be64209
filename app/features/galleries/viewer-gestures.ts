/**
 * The photo viewer's gestures (spec §2 "Photo viewer overlay", §9 "Interface"), as a pure state
 * machine fed with pointer and wheel events, so the spec's numbers hold exactly whatever viewer
 * library draws the slides (the one checked for this issue fixes its own swipe thresholds in
 * code: 30 px and 30 % of the width). The viewer component passes its events in and acts on what
 * comes out; the unit tests pass synthetic events in.
 */
export const VIEWER = {
  /** A horizontal swipe beyond this changes photo. */
  swipePx: 40,
  /** A move under this is not a swipe (a tap, or nothing). */
  movePx: 10,
  /** A vertical swipe beyond this share of the window's height closes the viewer. */
  closeFraction: 0.14,
  /** Two taps (or clicks) within this toggle zoom. */
  doubleTapMs: 300,
  /** Zoom goes from 1 (the photo fits) to this. */
  maxZoom: 6,
  /** Zoom when a double tap zooms in. */
  doubleTapZoom: 2.5,
  /** Space between slides. */
  slideGapPx: 20,
} as const;

/** What a pointer event carries that the gestures read (a PointerEvent has all of it). */
export type PointerSample = { pointerId: number; clientX: number; clientY: number; timeStamp: number };

export type GestureAction =
  | { kind: "next" }
  | { kind: "previous" }
  | { kind: "close" }
  | { kind: "toggle-zoom"; x: number; y: number }
  /** A drag under way: how far the slide follows the finger (for the viewer to draw). */
  | { kind: "drag"; dx: number; dy: number }
  /** Two fingers spreading or pinching: the zoom they ask for (within 1 and the maximum), around the point between them. */
  | { kind: "pinch"; zoom: number; x: number; y: number }
  | { kind: "none" };

const NONE: GestureAction = { kind: "none" };

export function clampZoom(zoom: number): number {
  return Math.min(VIEWER.maxZoom, Math.max(1, zoom));
}

/** The zoom after a wheel turn: each 100 px of wheel is a factor of 1.25, in or out, within 1 and the maximum. */
export function zoomAfterWheel(zoom: number, deltaY: number): number {
  return clampZoom(zoom * Math.pow(1.25, -deltaY / 100));
}

/**
 * One viewer's gestures. `windowHeight` is read when a swipe ends; `isZoomed` tells whether a
 * drag pans the zoomed photo (then it never changes or closes); `zoom` is the zoom a pinch starts
 * from. Two fingers pinch: the zoom follows the distance between them; lifting them ends it
 * without a swipe or a tap.
 */
export function createViewerGestures(options: { windowHeight: () => number; isZoomed: () => boolean; zoom?: () => number }) {
  let start: PointerSample | null = null;
  let lastTap: { at: number; x: number; y: number } | null = null;
  const fingers = new Map<number, { x: number; y: number }>();
  let pinch: { distance: number; zoom: number } | null = null;
  const twoFingers = () => {
    const [a, b] = [...fingers.values()];
    return { distance: Math.max(1, Math.hypot(b!.x - a!.x, b!.y - a!.y)), x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 };
  };

  return {
    down(event: PointerSample): GestureAction {
      fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (fingers.size === 2) {
        // A second finger starts a pinch: the swipe in progress is dropped.
        start = null;
        pinch = { distance: twoFingers().distance, zoom: options.zoom?.() ?? 1 };
      } else start = fingers.size === 1 && !pinch ? event : null;
      return NONE;
    },
    move(event: PointerSample): GestureAction {
      if (fingers.has(event.pointerId)) fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pinch && fingers.size === 2) {
        const now = twoFingers();
        return { kind: "pinch", zoom: clampZoom((pinch.zoom * now.distance) / pinch.distance), x: now.x, y: now.y };
      }
      if (!start || event.pointerId !== start.pointerId) return NONE;
      const dx = event.clientX - start.clientX;
      const dy = event.clientY - start.clientY;
      if (Math.hypot(dx, dy) < VIEWER.movePx) return NONE;
      return { kind: "drag", dx, dy };
    },
    up(event: PointerSample): GestureAction {
      fingers.delete(event.pointerId);
      if (pinch) {
        // The pinch ends when the last finger lifts; nothing else happens meanwhile.
        if (fingers.size === 0) pinch = null;
        return NONE;
      }
      if (!start || event.pointerId !== start.pointerId) return NONE;
      const dx = event.clientX - start.clientX;
      const dy = event.clientY - start.clientY;
      start = null;
      if (Math.hypot(dx, dy) < VIEWER.movePx) {
        // A tap: the second within the window toggles zoom where it landed.
        if (lastTap && event.timeStamp - lastTap.at <= VIEWER.doubleTapMs && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < VIEWER.movePx * 3) {
          lastTap = null;
          return { kind: "toggle-zoom", x: event.clientX, y: event.clientY };
        }
        lastTap = { at: event.timeStamp, x: event.clientX, y: event.clientY };
        return NONE;
      }
      lastTap = null;
      if (options.isZoomed()) return NONE;
      if (Math.abs(dx) >= Math.abs(dy)) {
        if (Math.abs(dx) > VIEWER.swipePx) return dx < 0 ? { kind: "next" } : { kind: "previous" };
        return NONE;
      }
      if (Math.abs(dy) > VIEWER.closeFraction * options.windowHeight()) return { kind: "close" };
      return NONE;
    },
    cancel(): void {
      start = null;
      fingers.clear();
      pinch = null;
    },
  };
}
