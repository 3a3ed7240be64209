import { lazy, Suspense, useEffect, useState, type CSSProperties } from "react";
import type { ToastPosition } from "react-toastify/unstyled";
import type { ToastType } from "~/lib/toast.schema";

/**
 * react-toastify is loaded on first use, or right after hydration by <Toaster/>, not with the
 * page: that keeps about 8 KB gzip off every first load (G5). Toasts shown before its container
 * mounts are queued by react-toastify and appear as soon as it does.
 */
const loadToastify = () => import("react-toastify/unstyled");

/** Resolves once react-toastify is loaded and every toast asked for so far has been handed to it. */
export function whenToastsReady(): Promise<void> {
  return loadToastify().then(() => undefined);
}

function withToastify(use: (module: Awaited<ReturnType<typeof loadToastify>>) => void): void {
  loadToastify()
    .then(use)
    // Never rethrow: the global handler would try to toast the failure, and fail again.
    .catch((error: unknown) => console.error("Toasts could not be loaded", error));
}

/** Spec §9 "Toast (application)": the constants, in one place. */
export const toastPositions = [
  "top-left",
  "top-center",
  "top-right",
  "bottom-left",
  "bottom-center",
  "bottom-right",
] as const satisfies readonly ToastPosition[];
export type ToastPlacement = (typeof toastPositions)[number];

export const TOAST_DEFAULT_POSITION: ToastPlacement = "top-right";
export const TOAST_DEFAULT_TIMEOUT_MS = 5000;
export const TOAST_MAX_VISIBLE = 20;
/** A toast dragged sideways by 60 % of its width is dismissed. */
export const TOAST_DRAG_DISMISS_PERCENT = 60;
/** The interface kit's per-type timeouts. */
export const toastTimeouts: Record<ToastType, number> = {
  success: 5000,
  info: 5000,
  warning: 6000,
  error: 8000,
  default: TOAST_DEFAULT_TIMEOUT_MS,
};

/** Spec §9: the progress bar is grey (#9ca3af, rgb(156, 163, 175)), whatever the toast type. */
export const TOAST_PROGRESS_COLOR = "#9ca3af";

/**
 * The progress colours, set on the toast containers themselves. Setting them on :root (app.css)
 * is not enough: ReactToastify.css is linked after app.css and sets the same variables on :root,
 * so its green/red/rainbow bars won. Variables on the container beat :root for everything inside.
 */
const progressColorVariables = {
  "--toastify-color-progress-light": TOAST_PROGRESS_COLOR,
  "--toastify-color-progress-dark": TOAST_PROGRESS_COLOR,
  "--toastify-color-progress-info": TOAST_PROGRESS_COLOR,
  "--toastify-color-progress-success": TOAST_PROGRESS_COLOR,
  "--toastify-color-progress-warning": TOAST_PROGRESS_COLOR,
  "--toastify-color-progress-error": TOAST_PROGRESS_COLOR,
} as CSSProperties;

export type ShowToastOptions = {
  type?: ToastType;
  position?: ToastPlacement;
  /** Milliseconds before it closes by itself; `false` keeps it until dismissed. */
  timeout?: number | false;
  /** Showing a toast with an id that is already visible does not stack a second one. */
  id?: string;
};

/**
 * The one way to show a toast. The message is always rendered as text: markup in it is shown
 * literally, never interpreted.
 */
export function showToast(message: string, options: ShowToastOptions = {}): void {
  const type = options.type ?? "default";
  const text = String(message);
  withToastify(({ toast: toastify }) => {
    toastify(text, {
      type,
      position: options.position ?? TOAST_DEFAULT_POSITION,
      autoClose: options.timeout ?? toastTimeouts[type],
      toastId: options.id,
    });
  });
}

export const toast = {
  show: (message: string, options?: Omit<ShowToastOptions, "type">) => showToast(message, options),
  success: (message: string, options?: Omit<ShowToastOptions, "type">) => showToast(message, { ...options, type: "success" }),
  error: (message: string, options?: Omit<ShowToastOptions, "type">) => showToast(message, { ...options, type: "error" }),
  warning: (message: string, options?: Omit<ShowToastOptions, "type">) => showToast(message, { ...options, type: "warning" }),
  info: (message: string, options?: Omit<ShowToastOptions, "type">) => showToast(message, { ...options, type: "info" }),
  /** Closes every toast, including those still queued behind the limit of TOAST_MAX_VISIBLE. */
  dismissAll: () =>
    withToastify(({ toast: toastify }) => {
      toastify.clearWaitingQueue();
      toastify.dismiss();
    }),
};

const ToastContainer = lazy(() => loadToastify().then((module) => ({ default: module.ToastContainer })));

/** Mounted once, in the root layout. Renders on the client only, once the page is interactive. */
export function Toaster() {
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!isHydrated) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer
        position={TOAST_DEFAULT_POSITION}
        autoClose={TOAST_DEFAULT_TIMEOUT_MS}
        limit={TOAST_MAX_VISIBLE}
        draggable
        draggablePercent={TOAST_DRAG_DISMISS_PERCENT}
        closeOnClick
        pauseOnHover
        pauseOnFocusLoss
        hideProgressBar={false}
        newestOnTop={false}
        theme="light"
        style={progressColorVariables}
        aria-label="Notifications"
      />
    </Suspense>
  );
}
