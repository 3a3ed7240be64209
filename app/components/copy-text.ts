import { showToast } from "~/components/ui/toast";

/** Copies text for a Copy button, and says so (or that the browser refused, and what to do instead). */
export function copyText(text: string, what: string): void {
  void navigator.clipboard.writeText(text).then(
    () => showToast(`${what} copied.`, { type: "success" }),
    () => showToast(`Copying was refused by the browser: select the ${what.toLowerCase()} and copy it.`, { type: "error" }),
  );
}
