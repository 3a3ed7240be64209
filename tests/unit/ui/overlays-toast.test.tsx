import { act, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  showToast,
  toast,
  Toaster,
  TOAST_DEFAULT_POSITION,
  TOAST_DEFAULT_TIMEOUT_MS,
  TOAST_DRAG_DISMISS_PERCENT,
  TOAST_MAX_VISIBLE,
  TOAST_PROGRESS_COLOR,
  toastPositions,
  toastTimeouts,
  whenToastsReady,
} from "~/components/ui/toast";
import { toastTypes } from "~/lib/toast.schema";

/** react-toastify loads on demand: let it load and render before asserting. */
async function inAct(fn: () => void = () => {}) {
  await act(async () => {
    fn();
    await whenToastsReady();
  });
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

async function renderToaster() {
  render(<Toaster />);
  await inAct();
}

function progressBarOf(message: string) {
  const toastElement = [...document.querySelectorAll<HTMLElement>(".Toastify__toast")].find((element) =>
    element.textContent?.includes(message),
  );
  return toastElement?.querySelector<HTMLElement>(".Toastify__progress-bar") ?? null;
}

afterEach(async () => {
  await inAct(() => {
    toast.dismissAll();
  });
});

describe("the toast constants (spec §9)", () => {
  it("has the five types and six positions, top-right by default", () => {
    expect(toastTypes).toEqual(["success", "error", "warning", "info", "default"]);
    expect(toastPositions).toEqual(["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"]);
    expect(TOAST_DEFAULT_POSITION).toBe("top-right");
  });

  it("times out after 5 s by default, success/info 5 s, warning 6 s, error 8 s", () => {
    expect(TOAST_DEFAULT_TIMEOUT_MS).toBe(5000);
    expect(toastTimeouts).toEqual({ success: 5000, info: 5000, warning: 6000, error: 8000, default: 5000 });
  });

  it("shows at most 20, dismisses on a 60 % drag and has a grey progress bar", () => {
    expect(TOAST_MAX_VISIBLE).toBe(20);
    expect(TOAST_DRAG_DISMISS_PERCENT).toBe(60);
    expect(TOAST_PROGRESS_COLOR).toBe("#9ca3af");
  });
});

describe("showToast", () => {
  it.each([
    ["success", 5000],
    ["info", 5000],
    ["warning", 6000],
    ["error", 8000],
    ["default", 5000],
  ] as const)("runs the progress bar of a %s toast for %i ms", async (type, timeout) => {
    await renderToaster();
    const message = `timeout check ${type}`;
    await inAct(() => {
      showToast(message, { type });
    });
    const bar = progressBarOf(message);
    expect(bar?.style.animationDuration).toBe(`${timeout}ms`);
    expect(bar?.className).toContain(`Toastify__progress-bar--${type}`);
  });

  it("lets an explicit timeout win over the type's", async () => {
    await renderToaster();
    await inAct(() => {
      toast.error("custom timeout", { timeout: 1234 });
    });
    expect(progressBarOf("custom timeout")?.style.animationDuration).toBe("1234ms");
  });

  it("places a toast top-right unless told otherwise", async () => {
    await renderToaster();
    await inAct(() => {
      showToast("where am I");
      showToast("down here", { position: "bottom-left" });
    });
    expect(document.querySelector(".Toastify__toast-container--top-right")?.textContent).toContain("where am I");
    expect(document.querySelector(".Toastify__toast-container--bottom-left")?.textContent).toContain("down here");
  });

  it("shows markup in a message as text and creates no elements from it", async () => {
    await renderToaster();
    const markup = "<b>bold</b><img src=x onerror=alert(1)>";
    await inAct(() => {
      showToast(markup, { type: "info" });
    });
    const toastElement = document.querySelector(".Toastify__toast");
    expect(toastElement?.textContent).toContain(markup);
    expect(toastElement?.querySelector("b, img")).toBeNull();
  });

  it("does not stack a second toast with the same id", async () => {
    await renderToaster();
    await inAct(() => {
      showToast("once", { id: "same" });
      showToast("once", { id: "same" });
    });
    expect(document.querySelectorAll(".Toastify__toast")).toHaveLength(1);
  });

  it("renders no more than 20 toasts at once", async () => {
    await renderToaster();
    await inAct(() => {
      for (let index = 0; index < 25; index += 1) showToast(`burst ${index}`);
    });
    expect(document.querySelectorAll(".Toastify__toast")).toHaveLength(20);
  });

  it("sets the grey progress colours on the container, where they beat ReactToastify.css's :root values", async () => {
    await renderToaster();
    await inAct(() => {
      toast.success("grey bar");
    });
    const container = document.querySelector<HTMLElement>(".Toastify__toast-container");
    for (const type of ["light", "dark", "info", "success", "warning", "error"]) {
      expect(container?.style.getPropertyValue(`--toastify-color-progress-${type}`)).toBe(TOAST_PROGRESS_COLOR);
    }
  });
});
