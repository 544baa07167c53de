import type { Locator, Page } from 'playwright-core';
import type { SeleniumLocator } from '@aqa/converters';

/*
 * Taurus's locators as Playwright locators (docs/reference/02-running.md §3 "Selenium-style scripts"):
 * ID, Name, CSS, XPath and LinkText. An action may list several: the first that finds an element is
 * used, as Taurus's fallbacks are.
 */

/** How long an action looks for its element before it fails: a page may still be drawing it. */
export const LOCATE_WAIT_MS = 1_000;
const POLL_MS = 100;

/** A locator as messages write it: "id: login", "css: form > button". */
export function locatorText(locator: SeleniumLocator): string {
  return `${locator.by}: ${locator.value}`;
}

export function locatorsText(locators: readonly SeleniumLocator[]): string {
  return locators.map(locatorText).join(', ');
}

/** A CSS attribute value in double quotes. */
function cssString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The Playwright locator of one Taurus locator, in the page's main frame. */
export function playwrightLocator(page: Page, locator: SeleniumLocator): Locator {
  switch (locator.by) {
    case 'id':
      return page.locator(`[id=${cssString(locator.value)}]`);
    case 'name':
      return page.locator(`[name=${cssString(locator.value)}]`);
    case 'css':
      return page.locator(locator.value);
    case 'xpath':
      return page.locator(`xpath=${locator.value}`);
    case 'linktext':
      // Selenium's link text: a link whose whole visible text is the value.
      return page.locator('a').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(locator.value)}\\s*$`) });
  }
}

export interface Found {
  element: Locator;
  /** The locator that found it, as messages write it. */
  used: string;
}

/**
 * The first element any of the locators finds, trying them in order, looking again for up to `waitMs`;
 * null when none does. A locator that is not valid CSS or XPath counts as finding nothing.
 */
export async function findElement(
  page: Page,
  locators: readonly SeleniumLocator[],
  waitMs = LOCATE_WAIT_MS,
): Promise<Found | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    for (const locator of locators) {
      const element = playwrightLocator(page, locator).first();
      const count = await element.count().catch(() => 0);
      if (count > 0) return { element, used: locatorText(locator) };
    }
    if (Date.now() >= deadline) return null;
    await page.waitForTimeout(POLL_MS);
  }
}

/** Why a locator cannot be used at all (invalid CSS or XPath), for a message; undefined when it can. */
export async function locatorProblem(page: Page, locator: SeleniumLocator): Promise<string | undefined> {
  try {
    await playwrightLocator(page, locator).count();
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return `${locatorText(locator)} is not a valid ${locator.by === 'xpath' ? 'XPath' : 'selector'} (${message})`;
  }
}
