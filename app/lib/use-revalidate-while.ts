import { useEffect } from "react";
import { useLiveRevalidate } from "./use-live-revalidate";

/**
 * Reloads the page's data every `everyMs` while `waiting` holds (a payment Stripe has not
 * confirmed yet, an order not yet with the lab), at most `maxTimes` times, so a page that says
 * "this page updates once it is" does. Stops as soon as the data says it is no longer waiting, and
 * never cuts into a navigation (useLiveRevalidate).
 */
export function useRevalidateWhile(waiting: boolean, everyMs = 3000, maxTimes = 40): void {
  const revalidate = useLiveRevalidate();
  useEffect(() => {
    if (!waiting) return;
    let times = 0;
    const timer = setInterval(() => {
      times += 1;
      if (times > maxTimes) {
        clearInterval(timer);
        return;
      }
      revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [waiting, everyMs, maxTimes, revalidate]);
}
