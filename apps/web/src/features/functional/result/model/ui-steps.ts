import {
  rateVital,
  type UiNavigationTimings,
  type UiScreenshotRef,
  type UiStepDetails,
  type VitalName,
  type VitalRating,
  type WebVitals,
} from '@aqa/plan';

/*
 * What the result screen reads of a UI run's step (docs/design.md §9 "UI tests"): its measured page
 * figures in the order they are shown, the rated ones with their rating by the usual Web Vitals
 * thresholds (the model's rateVital, the one source of truth for them), and where each of its
 * screenshots is shown (docs/recorded-ui-tests.md "Results").
 */

export type PageFigureName = VitalName | 'dom_content_loaded' | 'load';

export interface PageFigure {
  name: PageFigureName;
  /** ms, except CLS (unitless); null when the browser reported none. */
  value: number | null;
  /** Null for a figure without thresholds (DOMContentLoaded, load) or without a value. */
  rating: VitalRating | null;
}

function figure(name: PageFigureName, value: number | null): PageFigure {
  const rated = name === 'dom_content_loaded' || name === 'load' ? null : name;
  return { name, value, rating: rated === null || value === null ? null : rateVital(rated, value) };
}

/**
 * The navigation timings (time to first byte, DOMContentLoaded, load) then FCP, LCP and CLS, of a step
 * (the page it ended on) or of one page it opened (`ui.pages[]`).
 */
export function pageFigures(page: { timings: UiNavigationTimings | null; vitals: WebVitals }): PageFigure[] {
  return [
    figure('ttfb', page.timings?.ttfb ?? null),
    figure('dom_content_loaded', page.timings?.dom_content_loaded ?? null),
    figure('load', page.timings?.load ?? null),
    figure('fcp', page.vitals.fcp),
    figure('lcp', page.vitals.lcp),
    figure('cls', page.vitals.cls),
  ];
}

/**
 * Whether a step gets its own "Pages" list: a step that ran actions and opened pages. A URL step's one
 * page is the step's own "Page load" and screenshot already, so it is not listed twice.
 */
export function listsPages(ui: UiStepDetails): boolean {
  return ui.actions.length > 0 && (ui.pages ?? []).length > 0;
}

export interface PlacedShots {
  /** Per action (the index of `ui.actions`): its failure screenshot, or null. */
  byAction: (UiScreenshotRef | null)[];
  /** The screenshots shown under "Screenshots": those no action and no listed page shows. */
  rest: UiScreenshotRef[];
}

/**
 * Where each screenshot of a step is shown. The runner takes a "Failure" screenshot as each failed
 * action ends and names it on that action's result (`screenshot`, packages/ui-runner/src/page-step.ts),
 * so it is shown beside its action. A result stored before actions named their screenshot is read as
 * the runner wrote it then: the "Failure" screenshots in order, one per failed action, paired only when
 * they are exactly as many as the failed actions (else the run's screenshot budget ran out, a page could
 * not be drawn, or the step failed outside an action, and none is paired rather than one shown beside an
 * action it may not belong to). Screenshots not placed stay under "Screenshots"; a listed page's is
 * shown with its page.
 */
export function placeShots(ui: UiStepDetails): PlacedShots {
  const byAction: (UiScreenshotRef | null)[] = ui.actions.map(() => null);
  const shown = new Set<string>();
  const byId = new Map(ui.screenshots.map((shot) => [shot.id, shot]));
  if (ui.actions.some((action) => action.screenshot !== undefined)) {
    ui.actions.forEach((action, index) => {
      const shot = action.screenshot === undefined ? undefined : byId.get(action.screenshot);
      if (shot === undefined) return;
      byAction[index] = shot;
      shown.add(shot.id);
    });
  } else {
    const failed = ui.actions.flatMap((action, index) => (action.passed ? [] : [index]));
    const failureShots = ui.screenshots.filter((shot) => shot.failure && shot.label === 'Failure');
    if (failed.length > 0 && failureShots.length === failed.length) {
      failed.forEach((index, n) => {
        const shot = failureShots[n]!;
        byAction[index] = shot;
        shown.add(shot.id);
      });
    }
  }
  if (listsPages(ui)) {
    for (const page of ui.pages ?? []) if (page.screenshot !== null) shown.add(page.screenshot.id);
  }
  return { byAction, rest: ui.screenshots.filter((shot) => !shown.has(shot.id)) };
}
