import { useEffect, useState } from "react";

/**
 * False on the server and in the first client render, true once React owns the component's DOM.
 * Forms mark themselves `data-ready` with it: what is typed before may be drawn over, and the
 * browser tests wait for the mark before typing.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
