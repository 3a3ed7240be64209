import { useCallback, useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";

/**
 * Reloads the page's data for a live event without cutting into a navigation. React Router's
 * `revalidate()` during a navigation restarts that navigation's loads: a request already answered
 * by the server is thrown away, and with it a notice it carried (the flash cookie of a form's
 * redirect is cleared by the answer the browser then drops, so "… no longer has access" never
 * showed). While a navigation runs, its own loads bring the fresh data; once it has settled, one
 * more reload catches anything the event changed after those loads began.
 */
export function useLiveRevalidate(): () => void {
  const revalidator = useRevalidator();
  const busy = useNavigation().state !== "idle";
  // Read when the reload is due (a timer may call it later than the render that made it).
  const current = useRef({ busy, revalidator, isWaiting: false });
  current.current.busy = busy;
  current.current.revalidator = revalidator;
  useEffect(() => {
    if (busy || !current.current.isWaiting) return;
    current.current.isWaiting = false;
    void current.current.revalidator.revalidate();
  }, [busy]);
  return useCallback(() => {
    if (current.current.busy) current.current.isWaiting = true;
    else void current.current.revalidator.revalidate();
  }, []);
}
