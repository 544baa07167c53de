import { UiStepDetailsSchema, type UiActionResult, type UiScreenshotRef } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { listsPages, pageFigures, placeShots } from './ui-steps';

const shot = (id: string, label: string, failure = false): UiScreenshotRef => ({ id, label, failure });
const action = (passed: boolean, at: string): UiActionResult => ({
  action: 'assertText id=out Hello Ada',
  locator: 'id: out',
  passed,
  message: passed
    ? 'the text is "Hello Ada"'
    : 'expected the text "Hello Ada" in the element by id: out, found "Hello"',
  duration_ms: 4,
  at,
});
const page = (id: string | null, action: number | null) => ({
  url: 'http://127.0.0.1:5241/',
  action,
  timings: { ttfb: 12, dom_content_loaded: 40, load: 41 },
  vitals: { fcp: 60, lcp: null, cls: 0 },
  screenshot: id === null ? null : shot(id, 'Page'),
});

/** A step as the runner answers it, read through the model's schema. */
function step(input: {
  actions: UiActionResult[];
  screenshots: UiScreenshotRef[];
  pages?: ReturnType<typeof page>[];
}) {
  return UiStepDetailsSchema.parse({
    timings: { ttfb: 12, dom_content_loaded: 40, load: 41 },
    vitals: { fcp: 60, lcp: null, cls: 0 },
    console_errors: [],
    failed_requests: [],
    ...input,
  });
}

describe('where a UI step’s screenshots are shown (docs/recorded-ui-tests.md "Results")', () => {
  it('gives each failed action its failure screenshot, in order, when there is one per failure (a result stored before actions named theirs)', () => {
    const ui = step({
      actions: [action(true, 'command 1'), action(false, 'command 2'), action(false, 'command 3')],
      screenshots: [shot('p1', 'Page'), shot('f1', 'Failure', true), shot('f2', 'Failure', true)],
      pages: [page('p1', 0)],
    });
    const placed = placeShots(ui);
    expect(placed.byAction.map((s) => s?.id ?? null)).toEqual([null, 'f1', 'f2']);
    // The page's screenshot is shown with its page: nothing is left over.
    expect(placed.rest).toEqual([]);
  });

  it('pairs none in such a result when the failure screenshots are not one per failed action', () => {
    const ui = step({
      actions: [action(false, 'command 1'), action(false, 'command 2')],
      screenshots: [shot('f1', 'Failure', true)],
    });
    const placed = placeShots(ui);
    expect(placed.byAction).toEqual([null, null]);
    expect(placed.rest.map((s) => s.id)).toEqual(['f1']);
  });

  it('shows each screenshot beside the action that names it, even when some failure had none kept', () => {
    const ui = step({
      actions: [
        { ...action(false, 'command 1'), screenshot: 'f1' },
        action(false, 'command 2'),
        { ...action(false, 'command 3'), screenshot: 'f3' },
      ],
      screenshots: [shot('f1', 'Failure', true), shot('f3', 'Failure', true), shot('s', 'Step')],
    });
    const placed = placeShots(ui);
    expect(placed.byAction.map((s) => s?.id ?? null)).toEqual(['f1', null, 'f3']);
    expect(placed.rest.map((s) => s.id)).toEqual(['s']);
  });

  it('leaves a step that failed outside its actions, and a screenshot action’s picture, under Screenshots', () => {
    // The page did not load: a failure screenshot, no action run.
    expect(placeShots(step({ actions: [], screenshots: [shot('f1', 'Failure', true)] })).rest).toHaveLength(
      1,
    );
    const ui = step({
      actions: [action(true, 'command 1')],
      screenshots: [shot('a', 'cart.png'), shot('s', 'Step')],
    });
    expect(placeShots(ui).rest.map((s) => s.id)).toEqual(['a', 's']);
  });

  it('lists pages only for a step that ran actions: a URL step’s one page is its own figures', () => {
    const urlStep = step({ actions: [], screenshots: [shot('s', 'Step')], pages: [page('s', null)] });
    expect(listsPages(urlStep)).toBe(false);
    expect(placeShots(urlStep).rest.map((s) => s.id)).toEqual(['s']);
    expect(listsPages(step({ actions: [action(true, 'command 1')], screenshots: [] }))).toBe(false);
    expect(listsPages(step({ actions: [action(true, 'c')], screenshots: [], pages: [page(null, 0)] }))).toBe(
      true,
    );
  });

  it('reads a page’s figures as measured, an unreported one as null without a rating', () => {
    const figures = pageFigures(page(null, 0));
    expect(figures.map((f) => [f.name, f.value, f.rating])).toEqual([
      ['ttfb', 12, 'good'],
      ['dom_content_loaded', 40, null],
      ['load', 41, null],
      ['fcp', 60, 'good'],
      ['lcp', null, null],
      ['cls', 0, 'good'],
    ]);
  });
});
