import type { Page } from 'playwright-core';
import type { UiNavigationTimings, WebVitals } from '@aqa/plan';

/*
 * A page's navigation timings and the Web Vitals a browser reports without interaction (docs/design.md
 * §9 "UI tests"): first contentful paint, largest contentful paint and cumulative layout shift, read
 * from PerformanceObservers the init script starts in every document before its own scripts run.
 */

const VITALS_KEY = '__aqaVitals';

/** Runs in each new document (BrowserContext.addInitScript); buffered observers also see what came before. */
export const VITALS_INIT_SCRIPT = `(() => {
  const v = { fcp: null, lcp: null, cls: null };
  try { Object.defineProperty(window, ${JSON.stringify(VITALS_KEY)}, { value: v }); } catch { return; }
  const watch = (type, onEntries) => {
    try { new PerformanceObserver((list) => onEntries(list.getEntries())).observe({ type, buffered: true }); return true; }
    catch { return false; }
  };
  watch('paint', (es) => { for (const e of es) if (e.name === 'first-contentful-paint') v.fcp = e.startTime; });
  watch('largest-contentful-paint', (es) => { const e = es[es.length - 1]; if (e) v.lcp = e.startTime; });
  if (watch('layout-shift', (es) => { for (const e of es) if (!e.hadRecentInput) v.cls += e.value; })) v.cls = 0;
})();`;

export interface PageMeasures {
  /** performance.timeOrigin of the document: tells one document from the next. */
  origin: number;
  timings: UiNavigationTimings | null;
  vitals: WebVitals;
}

const NO_VITALS: WebVitals = { fcp: null, lcp: null, cls: null };

const round = (n: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** The current document's performance.timeOrigin, or null when it cannot be read. */
export async function documentOrigin(page: Page): Promise<number | null> {
  try {
    return await page.evaluate(() => performance.timeOrigin);
  } catch {
    return null;
  }
}

/** How long to wait for the load event's handlers to end (loadEventEnd is 0 until they have). */
const LOAD_END_WAIT_MS = 2_000;
/** Paints that land just after load still count for FCP and LCP. */
const PAINT_SETTLE_MS = 200;

/**
 * Reads the document's navigation timing (in ms from its navigation's start) and vitals, once its load
 * event has ended and late paints have landed; null when the page cannot be read.
 */
export async function readMeasures(page: Page): Promise<PageMeasures | null> {
  try {
    await page
      .waitForFunction(
        () => {
          const nav = performance.getEntriesByType('navigation')[0] as
            PerformanceNavigationTiming | undefined;
          return nav === undefined || nav.loadEventEnd > 0;
        },
        undefined,
        { timeout: LOAD_END_WAIT_MS, polling: 50 },
      )
      .catch(() => undefined);
    await page.waitForTimeout(PAINT_SETTLE_MS);
    const read = await page.evaluate((key) => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const vitals = (window as unknown as Record<string, unknown>)[key] as
        { fcp: number | null; lcp: number | null; cls: number | null } | undefined;
      return {
        origin: performance.timeOrigin,
        nav:
          nav === undefined
            ? null
            : {
                start: nav.startTime,
                responseStart: nav.responseStart,
                dcl: nav.domContentLoadedEventEnd,
                load: nav.loadEventEnd,
              },
        vitals: vitals === undefined ? null : { ...vitals },
      };
    }, VITALS_KEY);
    const nav = read.nav;
    const since = (t: number): number => round(Math.max(0, t - (nav?.start ?? 0)), 1);
    return {
      origin: read.origin,
      timings:
        nav === null || nav.responseStart <= 0
          ? null
          : { ttfb: since(nav.responseStart), dom_content_loaded: since(nav.dcl), load: since(nav.load) },
      vitals:
        read.vitals === null
          ? NO_VITALS
          : {
              fcp: read.vitals.fcp === null ? null : round(read.vitals.fcp, 1),
              lcp: read.vitals.lcp === null ? null : round(read.vitals.lcp, 1),
              cls: read.vitals.cls === null ? null : round(read.vitals.cls, 4),
            },
    };
  } catch {
    return null;
  }
}

export { NO_VITALS };
