import { useEffect, useRef } from "react";
import { PAGE_TIME_MAX_MS_PER_REPORT, PAGE_TIME_REPORT_MS } from "~/features/datarooms/analytics.constants";
import { readCsrfToken } from "~/lib/http";

/**
 * Time per PDF page for the room's analytics: while the tab is visible, the page on screen
 * accumulates time; every 15 seconds, when the tab is hidden and when the viewer closes, what was
 * gathered is sent (`keepalive`, so a closing tab still delivers it) to `url` (a room's file or a
 * share link's), with the document's page count (completion). Nothing is sent without a `url`
 * (a file outside a room), and nothing when no time was gathered.
 */
/** Adds the running page's time so far to what is waiting to be sent, and stops the clock. */
function settle(pending: Map<number, number>, running: { page: number; since: number } | null): void {
  if (running) pending.set(running.page, (pending.get(running.page) ?? 0) + (performance.now() - running.since));
}

/** The clock for `page`, when it is on a visible tab. */
function clockFor(page: number | null): { page: number; since: number } | null {
  return page !== null && document.visibilityState === "visible" ? { page, since: performance.now() } : null;
}

export function usePageTimeReport(url: string | null, page: number | null, pageCount: number | null = null): void {
  const pending = useRef(new Map<number, number>());
  const current = useRef<{ page: number; since: number } | null>(null);
  const pageRef = useRef(page);
  pageRef.current = page;
  const pageCountRef = useRef(pageCount);
  pageCountRef.current = pageCount;

  useEffect(() => {
    if (!url) return;
    const start = () => {
      current.current = clockFor(pageRef.current);
    };
    const send = () => {
      settle(pending.current, current.current);
      current.current = null;
      let budget = PAGE_TIME_MAX_MS_PER_REPORT;
      const pages: Record<string, number> = {};
      for (const [shown, ms] of pending.current) {
        const kept = Math.min(Math.round(ms), budget);
        if (kept <= 0) continue;
        pages[String(shown)] = kept;
        budget -= kept;
      }
      pending.current.clear();
      if (Object.keys(pages).length === 0) return;
      void fetch(url, {
        method: "POST",
        keepalive: true,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-TOKEN": readCsrfToken(), "X-Requested-With": "XMLHttpRequest" },
        body: JSON.stringify({ pages, pageCount: pageCountRef.current ?? undefined }),
      }).catch(() => undefined);
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") send();
      else start();
    };
    start();
    const timer = window.setInterval(() => {
      send();
      start();
    }, PAGE_TIME_REPORT_MS);
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", send);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", send);
      send();
    };
  }, [url]);

  // Another page on screen: the time so far belongs to the one before.
  useEffect(() => {
    if (!url) return;
    settle(pending.current, current.current);
    current.current = clockFor(page);
  }, [url, page]);
}
