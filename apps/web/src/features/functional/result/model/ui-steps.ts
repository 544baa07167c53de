import { rateVital, type UiStepDetails, type VitalName, type VitalRating } from '@aqa/plan';

/*
 * What the result screen reads of a UI run's step (docs/design.md §9 "UI tests"): its measured page
 * figures in the order they are shown, the rated ones with their rating by the usual Web Vitals
 * thresholds (the model's rateVital, the one source of truth for them).
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

/** The navigation timings (time to first byte, DOMContentLoaded, load) then FCP, LCP and CLS. */
export function pageFigures(ui: UiStepDetails): PageFigure[] {
  return [
    figure('ttfb', ui.timings?.ttfb ?? null),
    figure('dom_content_loaded', ui.timings?.dom_content_loaded ?? null),
    figure('load', ui.timings?.load ?? null),
    figure('fcp', ui.vitals.fcp),
    figure('lcp', ui.vitals.lcp),
    figure('cls', ui.vitals.cls),
  ];
}
