import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { clampZoom, createViewerGestures, VIEWER, zoomAfterWheel } from "../viewer-gestures";
import { useMediaRetry } from "./use-media-retry";

/** A photo the viewer shows: its screen size, its download (none when downloads are off) and, where the owner allows, what its EXIF says. */
export type ViewerPhoto = { id: string; name: string; screen: string; download: string | null; facts?: { takenAt: string | null; camera: string | null; place: string | null } | null };

type Turn = { rotate: number; flipX: boolean; flipY: boolean };
const UPRIGHT: Turn = { rotate: 0, flipX: false, flipY: false };

const controlClass =
  "rounded-md px-3 py-2 text-sm font-medium text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-40";

/** One photo's image, tried again once after 1 s when it fails to load (spec §9); each photo is its own element (keyed by id). */
function ViewerImage({ photo, style, hidden }: { photo: ViewerPhoto; style: React.CSSProperties; hidden?: boolean }) {
  const [failed, setFailed] = useState(false);
  const { address, onError } = useMediaRetry(photo.screen, 1, () => setFailed(true));
  if (failed) return <p className="absolute inset-0 m-auto h-fit text-center text-white">This photo could not be loaded.</p>;
  return (
    <img
      src={address}
      alt={hidden ? "" : photo.name}
      aria-hidden={hidden || undefined}
      draggable={false}
      className="absolute inset-0 m-auto max-h-full max-w-full select-none object-contain"
      style={style}
      onError={onError}
    />
  );
}

/**
 * The photo viewer (spec §2 "Photo viewer overlay"): the counter "n / total"; download, rotate
 * left and right, flip horizontally and vertically, close; left and right arrows, Escape; a
 * horizontal swipe beyond 40 px changes photo, a vertical one beyond 14 % of the window's height
 * closes, a double tap or double click toggles zoom, the wheel zooms (up to 6×). The gestures are
 * `viewer-gestures.ts`; the neighbours sit 20 px beside the photo and follow the finger.
 */
export type PhotoViewerProps = {
  photos: ViewerPhoto[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** More controls for the photo shown (a public gallery's favourite button). */
  renderActions?: (photo: ViewerPhoto) => React.ReactNode;
};

export function PhotoViewer({ photos, index, onIndex, onClose, renderActions }: PhotoViewerProps) {
  const [turn, setTurn] = useState<Turn>(UPRIGHT);
  const [zoom, setZoom] = useState(1);
  const [origin, setOrigin] = useState({ x: 50, y: 50 });
  const [drag, setDrag] = useState({ dx: 0, dy: 0 });
  const [pan, setPan] = useState({ x: 0, y: 0 });
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  const stage = useRef<HTMLDivElement>(null);
  const gestures = useMemo(() => createViewerGestures({ windowHeight: () => window.innerHeight, isZoomed: () => zoomRef.current > 1, zoom: () => zoomRef.current }), []);
  const photo = photos[index]!;
  const go = (next: number) => {
    if (next < 0 || next >= photos.length) return;
    setTurn(UPRIGHT);
    setZoom(1);
    setPan({ x: 0, y: 0 });
    onIndex(next);
  };

  const toggleZoom = (x: number, y: number) => {
    const box = stage.current?.getBoundingClientRect();
    if (zoomRef.current > 1) {
      setZoom(1);
      setPan({ x: 0, y: 0 });
    } else {
      if (box) setOrigin({ x: ((x - box.left) / box.width) * 100, y: ((y - box.top) / box.height) * 100 });
      setZoom(VIEWER.doubleTapZoom);
    }
  };

  const onPointer = (phase: "down" | "move" | "up") => (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === "mouse" && event.button !== 0 && phase === "down") return;
    if (phase === "down") {
      // A pointer the browser no longer knows (lifted already) cannot be captured; the gesture goes on without it.
      try {
        event.currentTarget.setPointerCapture?.(event.pointerId);
      } catch {
        /* the move and up events still reach the stage while the finger stays on it */
      }
    }
    const sample = { pointerId: event.pointerId, clientX: event.clientX, clientY: event.clientY, timeStamp: event.timeStamp };
    const action = phase === "down" ? gestures.down(sample) : phase === "move" ? gestures.move(sample) : gestures.up(sample);
    if (phase === "up") {
      if (zoomRef.current > 1) setPan((current) => ({ x: current.x + drag.dx, y: current.y + drag.dy }));
      setDrag({ dx: 0, dy: 0 });
    }
    if (action.kind === "drag") setDrag({ dx: action.dx, dy: action.dy });
    else if (action.kind === "next") go(index + 1);
    else if (action.kind === "previous") go(index - 1);
    else if (action.kind === "close") onClose();
    else if (action.kind === "toggle-zoom") toggleZoom(action.x, action.y);
    else if (action.kind === "pinch") {
      const box = stage.current?.getBoundingClientRect();
      // A pinch from the whole photo zooms around the point between the fingers.
      if (zoomRef.current === 1 && box) setOrigin({ x: ((action.x - box.left) / box.width) * 100, y: ((action.y - box.top) / box.height) * 100 });
      setZoom(action.zoom);
      if (action.zoom === 1) setPan({ x: 0, y: 0 });
    }
  };

  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    // The wheel zooms (a passive listener could not keep the page from scrolling).
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const next = zoomAfterWheel(zoomRef.current, event.deltaY);
      setZoom(next);
      if (next === 1) setPan({ x: 0, y: 0 });
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, []);

  const zoomed = zoom > 1;
  const follow = zoomed ? { x: pan.x + drag.dx, y: pan.y + drag.dy } : { x: drag.dx, y: Math.abs(drag.dy) > Math.abs(drag.dx) ? drag.dy : 0 };
  const transform = `translate(${follow.x}px, ${follow.y}px) rotate(${turn.rotate}deg) scale(${turn.flipX ? -zoom : zoom}, ${turn.flipY ? -zoom : zoom})`;
  const neighbour = (offset: -1 | 1) => {
    const other = photos[index + offset];
    if (!other || zoomed) return null;
    return <ViewerImage key={other.id} photo={other} hidden style={{ transform: `translateX(calc(${offset * 100}% + ${offset * VIEWER.slideGapPx}px + ${drag.dx}px))` }} />;
  };

  return (
    <Dialog.Root open onOpenChange={(open) => (open ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/95" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col text-white outline-none"
          aria-describedby={undefined}
          onKeyDown={(event) => {
            if (event.key === "ArrowRight") go(index + 1);
            else if (event.key === "ArrowLeft") go(index - 1);
          }}
        >
          <Dialog.Title className="sr-only">Photo viewer: {photo.name}</Dialog.Title>
          <div className="flex flex-wrap items-center gap-1 px-3 py-2">
            <span className="mr-auto px-2 text-sm tabular-nums" aria-live="polite" data-testid="viewer-counter">
              {index + 1} / {photos.length}
            </span>
            {renderActions?.(photo)}
            {photo.download ? (
              <a href={photo.download} download className={controlClass}>
                Download
              </a>
            ) : null}
            <button type="button" className={controlClass} onClick={() => setTurn((t) => ({ ...t, rotate: t.rotate - 90 }))}>
              Rotate left
            </button>
            <button type="button" className={controlClass} onClick={() => setTurn((t) => ({ ...t, rotate: t.rotate + 90 }))}>
              Rotate right
            </button>
            <button type="button" className={controlClass} aria-pressed={turn.flipX} onClick={() => setTurn((t) => ({ ...t, flipX: !t.flipX }))}>
              Flip horizontally
            </button>
            <button type="button" className={controlClass} aria-pressed={turn.flipY} onClick={() => setTurn((t) => ({ ...t, flipY: !t.flipY }))}>
              Flip vertically
            </button>
            <Dialog.Close className={controlClass}>Close</Dialog.Close>
          </div>
          <div
            ref={stage}
            className="relative flex-1 touch-none overflow-hidden"
            data-testid="viewer-stage"
            data-zoom={zoom}
            onPointerDown={onPointer("down")}
            onPointerMove={onPointer("move")}
            onPointerUp={onPointer("up")}
            onPointerCancel={() => {
              gestures.cancel();
              setDrag({ dx: 0, dy: 0 });
            }}
          >
            {neighbour(-1)}
            <ViewerImage key={photo.id} photo={photo} style={{ transform, transformOrigin: `${origin.x}% ${origin.y}%`, transition: drag.dx || drag.dy ? "none" : "transform 150ms ease-out" }} />
            {neighbour(1)}
          </div>
          <div className="flex justify-between px-3 py-2">
            <button type="button" className={controlClass} disabled={index === 0} onClick={() => go(index - 1)}>
              Previous photo
            </button>
            <span className="self-center text-center text-xs text-white/70">
              {photo.facts ? <span className="block" data-testid="viewer-facts">{[photo.facts.takenAt ? `Taken ${photo.facts.takenAt}` : null, photo.facts.camera, photo.facts.place].filter(Boolean).join(" · ")}</span> : null}
              {zoomed ? `${Math.round(clampZoom(zoom) * 100)} %` : "Double-click or use the wheel to zoom"}
            </span>
            <button type="button" className={controlClass} disabled={index === photos.length - 1} onClick={() => go(index + 1)}>
              Next photo
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
