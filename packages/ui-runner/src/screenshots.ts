import type { Page } from 'playwright-core';
import { UI_MAX_SCREENSHOTS_PER_RUN, type UiScreenshotRef } from '@aqa/plan';
import type { UiScreenshot } from './contract';

/*
 * A run's screenshots (docs/design.md §9 "UI tests"): JPEG of the viewport, kept through the caller's
 * saveScreenshot. A run keeps at most UI_MAX_SCREENSHOTS_PER_RUN; the last tenth of them is left for
 * failures, so a long run that starts failing late still shows why.
 */

const JPEG_QUALITY = 70;
const FAILURES_ONLY_FROM = Math.floor(UI_MAX_SCREENSHOTS_PER_RUN * 0.9);
/** A screenshot of a page that does not draw is given up after this long. */
const SHOT_TIMEOUT_MS = 10_000;

export class ScreenshotKeeper {
  private kept = 0;

  constructor(private readonly save: (shot: UiScreenshot) => Promise<string>) {}

  /** Takes and keeps a screenshot; null when the run has kept its share or the page could not be drawn. */
  async take(page: Page, label: string, failure: boolean): Promise<UiScreenshotRef | null> {
    const limit = failure ? UI_MAX_SCREENSHOTS_PER_RUN : FAILURES_ONLY_FROM;
    if (this.kept >= limit) return null;
    this.kept++;
    try {
      const jpeg = await page.screenshot({ type: 'jpeg', quality: JPEG_QUALITY, timeout: SHOT_TIMEOUT_MS });
      const id = await this.save({ jpeg, label, failure });
      return { id, label, failure };
    } catch {
      this.kept--;
      return null;
    }
  }
}
