import { z } from 'zod';

/*
 * What a UI test step measured and kept (docs/design.md §9 "UI tests"): the page's navigation timings,
 * the Web Vitals a browser reports without interaction, the page's console errors and failed requests,
 * the screenshots taken, and for a Selenium-style script each action's outcome. A UI step is a
 * CallResult (one page of one iteration) carrying these under `ui`.
 */

const text = z.string();
const ms = z.number().min(0).describe('ms');

/** Navigation Timing of the step's page load, in ms from the navigation's start. */
export const UiNavigationTimingsSchema = z.object({
  ttfb: ms.describe('Time to first byte: from the navigation start to the first byte of the document'),
  dom_content_loaded: ms.describe('DOMContentLoaded finished'),
  load: ms.describe('The load event finished'),
});
export type UiNavigationTimings = z.infer<typeof UiNavigationTimingsSchema>;

/** Web Vitals measurable without interaction; null when the browser reported none for the page. */
export const WebVitalsSchema = z.object({
  fcp: ms.nullable().describe('First contentful paint'),
  lcp: ms.nullable().describe('Largest contentful paint'),
  cls: z.number().min(0).nullable().describe('Cumulative layout shift (unitless)'),
});
export type WebVitals = z.infer<typeof WebVitalsSchema>;

/** A screenshot kept with the run; served to its owner by GET /api/functional/screenshot/{testId}/{id}. */
export const UiScreenshotRefSchema = z.object({
  id: text,
  label: text.describe('"Step", "Failure", or the screenshot action\'s file name'),
  failure: z.boolean(),
});
export type UiScreenshotRef = z.infer<typeof UiScreenshotRefSchema>;

/** One action of a Selenium-style script step, as run. */
export const UiActionResultSchema = z.object({
  action: text.describe('As written in the script: "clickByID", "type", "waitFor"'),
  line: z.number().int().min(1).optional(),
  locator: text
    .nullable()
    .describe('The locator that found the element ("css: #login"), or all tried when none did'),
  passed: z.boolean(),
  message: text.describe('What happened: for a failure, what was expected and what was found'),
  duration_ms: ms,
  at: text
    .optional()
    .describe(
      'Where the source writes the action: "Selenium IDE test \'Sign in\', command 7", "Chrome Recorder \'Login\', step 3"',
    ),
  expected: text.optional().describe("An assertion's expected value, as it was judged"),
  actual: text.nullable().optional().describe("An assertion's actual value; null when nothing was found"),
  screenshot: text
    .optional()
    .describe(
      'A failed action: the id of the "Failure" screenshot taken as it failed (absent when none could be kept, and in results stored before it was recorded)',
    ),
});
export type UiActionResult = z.infer<typeof UiActionResultSchema>;

/** A page the step's actions opened (its first load, or a navigation an action caused), as measured. */
export const UiPageVisitSchema = z.object({
  url: text,
  /** The action that opened it (its index in `actions`); null for the step's own URL. */
  action: z.number().int().min(0).nullable(),
  timings: UiNavigationTimingsSchema.nullable(),
  vitals: WebVitalsSchema,
  screenshot: UiScreenshotRefSchema.nullable().describe('The page once loaded; null when none was kept'),
});
export type UiPageVisit = z.infer<typeof UiPageVisitSchema>;

/** Pages a step records with their vitals and screenshot; later navigations are counted only. */
export const UI_KEPT_PAGES_PER_STEP = 50;

export const UI_KEPT_CONSOLE_ERRORS = 20;
export const UI_KEPT_FAILED_REQUESTS = 20;
/** A run keeps at most this many screenshots; later steps keep only failure screenshots, then none. */
export const UI_MAX_SCREENSHOTS_PER_RUN = 300;

export const UiStepDetailsSchema = z.object({
  timings: UiNavigationTimingsSchema.nullable().describe('Null when the step loaded no page'),
  vitals: WebVitalsSchema,
  console_errors: z.array(text).describe('The first 20 console errors and uncaught exceptions'),
  failed_requests: z
    .array(z.object({ method: text, url: text, error: text.describe('"net::ERR_…", or "HTTP 404"') }))
    .describe('The first 20 requests that failed or answered 4xx/5xx'),
  screenshots: z.array(UiScreenshotRefSchema),
  actions: z.array(UiActionResultSchema).describe("A script step's actions; empty for a URL step"),
  pages: z
    .array(UiPageVisitSchema)
    .optional()
    .describe('The pages the step opened, in order, each with its timings, Web Vitals and screenshot'),
});
export type UiStepDetails = z.infer<typeof UiStepDetailsSchema>;

export type VitalName = 'ttfb' | 'fcp' | 'lcp' | 'cls';
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/**
 * The usual thresholds (web.dev's Web Vitals): at or under the first is good, over the second poor.
 * TTFB 800/1800 ms, FCP 1800/3000 ms, LCP 2500/4000 ms, CLS 0.1/0.25.
 */
export const VITAL_THRESHOLDS: Readonly<Record<VitalName, readonly [number, number]>> = {
  ttfb: [800, 1800],
  fcp: [1800, 3000],
  lcp: [2500, 4000],
  cls: [0.1, 0.25],
};

export function rateVital(name: VitalName, value: number): VitalRating {
  const [good, poor] = VITAL_THRESHOLDS[name];
  if (value <= good) return 'good';
  return value > poor ? 'poor' : 'needs-improvement';
}
