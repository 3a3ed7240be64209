import { useEffect, useState } from "react";
import { MEDIA_RETRY_MS } from "../media.constants";

/**
 * Spec §2, §9: a picture or video that fails to load is tried again after 1 s, up to `retries`
 * times (each try a new address, so no cache answers with the old failure); after the last,
 * `onGiveUp`. `attempt` counts the tries made (a key to remount a video).
 */
export function useMediaRetry(src: string, retries: number, onGiveUp: () => void = () => undefined) {
  const [attempt, setAttempt] = useState(0);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setTimeout(() => {
      setWaiting(false);
      setAttempt((value) => value + 1);
    }, MEDIA_RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [waiting]);
  const address = attempt === 0 ? src : `${src}${src.includes("?") ? "&" : "?"}attempt=${attempt}`;
  const onError = () => (attempt < retries ? setWaiting(true) : onGiveUp());
  return { address, attempt, onError };
}
