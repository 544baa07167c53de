import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { UiLocator, UiLocatorPart } from '@aqa/plan';

/*
 * The UI action model's locators as Playwright locators (docs/adr/0030-recorded-ui-tests.md §1): Taurus's
 * and Selenium IDE's ID, Name, CSS, XPath, link text and partial link text, and the Chrome Recorder's
 * aria/, text/ and pierce/ selectors. An action may list several: the first that finds an element is
 * used, as Taurus's fallbacks, Selenium IDE's targets and the Recorder's selectors are. Playwright's CSS
 * goes through open shadow roots, so pierce/ is CSS; a Recorder selector's `within` parts are entered
 * one by one: a frame as its document, any other element as the scope of the next part.
 */

type SeleniumLocator = UiLocator;
type Scope = Page | Frame | Locator | FrameLocator;

/** How long an action looks for its element before it fails: a page may still be drawing it. */
export const LOCATE_WAIT_MS = 1_000;
const POLL_MS = 100;

/** A locator as messages write it: "id: login", "css: form > button". */
export function locatorText(locator: SeleniumLocator): string {
  const frames = (locator.framePath ?? []).map((index) => `frame ${index} >> `).join('');
  const within = (locator.within ?? []).map((part) => `${part} >> `).join('');
  const chain = (locator.chain ?? []).map(
    (part) => `${partText(part)}${part.frame === true ? ' >> frame' : ''} >> `,
  );
  return `${frames}${chain.join('')}${locator.by}: ${within}${pattern(locator.value, locator.valueFlags, '')}${partRest(locator)}`;
}

/** A text or, with flags, a regular expression as written: "Sign in", /sign in/i. */
function pattern(text: string, flags: string | undefined, quote: string): string {
  return flags === undefined ? `${quote}${text}${quote}` : `/${text}/${flags}`;
}

/** A chain part's name, text filter and position, as messages write them. */
function partRest(part: UiLocatorPart): string {
  const name = part.name === undefined ? '' : ` ${pattern(part.name, part.nameFlags, '"')}`;
  const hasText =
    part.hasText === undefined ? '' : ` with text ${pattern(part.hasText, part.hasTextFlags, '"')}`;
  const nth = part.nth === undefined ? '' : part.nth === -1 ? ' (the last)' : ` (number ${part.nth + 1})`;
  return `${name}${hasText}${nth}`;
}

function partText(part: UiLocatorPart): string {
  return `${part.by}: ${pattern(part.value, part.valueFlags, '')}${partRest(part)}`;
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

/** The roles an aria/ selector without a role is looked for in, beside a form control's label. */
const NAMED_ROLES = [
  'button',
  'link',
  'textbox',
  'checkbox',
  'radio',
  'combobox',
  'heading',
  'img',
  'menuitem',
  'tab',
  'option',
] as const;

/**
 * Puppeteer's aria/ selector (the Recorder's): `Name` or `Name[role="button"]` — an element whose
 * accessible name is the whole name, of that role when one is given.
 */
function ariaLocator(scope: Scope, value: string): Locator {
  const match = /^(.*?)\[role="([^"]+)"\]$/.exec(value);
  const name = (match?.[1] ?? value).trim();
  const role = match?.[2];
  if (role !== undefined) {
    return scope.getByRole(role as Parameters<Page['getByRole']>[0], { name, exact: true });
  }
  let found = scope.getByLabel(name, { exact: true });
  for (const r of NAMED_ROLES) found = found.or(scope.getByRole(r, { name, exact: true }));
  return found;
}

/** Playwright's `exact` option, when the locator says it. */
function exactly(locator: UiLocatorPart): { exact?: boolean } {
  return locator.exact === undefined ? {} : { exact: locator.exact };
}

/** A text, or with flags a regular expression, as Playwright takes it: the page matches it, not the server. */
function textOrPattern(text: string, flags: string | undefined): string | RegExp {
  return flags === undefined ? text : new RegExp(text, flags);
}

/** A locator part with its text filter and position (Playwright's .filter({ hasText }), .nth, .last). */
function refinedIn(scope: Scope, part: UiLocatorPart): Locator {
  let found = locatorIn(scope, part);
  if (part.hasText !== undefined)
    found = found.filter({ hasText: textOrPattern(part.hasText, part.hasTextFlags) });
  if (part.nth === -1) found = found.last();
  else if (part.nth !== undefined) found = found.nth(part.nth);
  return found;
}

/** The Playwright locator of one locator within a scope (the page, an element, or a frame's document). */
function locatorIn(scope: Scope, locator: UiLocatorPart): Locator {
  const value = textOrPattern(locator.value, locator.valueFlags);
  switch (locator.by) {
    case 'id':
      return scope.locator(`[id=${cssString(locator.value)}]`);
    case 'name':
      return scope.locator(`[name=${cssString(locator.value)}]`);
    case 'css':
    case 'pierce':
      return scope.locator(locator.value);
    case 'xpath':
      return scope.locator(`xpath=${locator.value}`);
    case 'linktext':
      // Selenium's link text: a link whose whole visible text is the value.
      return scope.locator('a').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(locator.value)}\\s*$`) });
    case 'partiallinktext':
      return scope.locator('a').filter({ hasText: locator.value });
    case 'aria':
      return ariaLocator(scope, locator.value);
    case 'text':
      // Puppeteer's text/ selector (and Playwright's getByText): the innermost element whose text holds it.
      return scope.getByText(value, exactly(locator));
    case 'role':
      return scope.getByRole(locator.value as Parameters<Page['getByRole']>[0], {
        ...(locator.name === undefined ? {} : { name: textOrPattern(locator.name, locator.nameFlags) }),
        ...exactly(locator),
      });
    case 'label':
      return scope.getByLabel(value, exactly(locator));
    case 'placeholder':
      return scope.getByPlaceholder(value, exactly(locator));
    case 'testid':
      return scope.getByTestId(value);
    case 'alttext':
      return scope.getByAltText(value, exactly(locator));
    case 'title':
      return scope.getByTitle(value, exactly(locator));
  }
}

/** The Playwright locator of a locator in the page's main frame (its `within` parts left aside). */
export function playwrightLocator(page: Page, locator: SeleniumLocator): Locator {
  return refinedIn(page, locator);
}

/**
 * The Playwright locator of a locator, its `within` parts entered first: a frame (iframe, frame) as its
 * document, any other element (a shadow host) as the scope the next part is looked for in.
 */
export async function resolveLocator(page: Page | Frame, locator: SeleniumLocator): Promise<Locator> {
  let scope: Scope = page;
  // The Recorder's frame indices: child frames of the main frame, as Puppeteer Replay enters them.
  if (locator.framePath !== undefined && locator.framePath.length > 0) {
    let frame = 'mainFrame' in page ? page.mainFrame() : page;
    for (const index of locator.framePath) {
      const child = frame.childFrames()[index];
      if (child === undefined) throw new FrameMissing(locator.framePath, frame.childFrames().length);
      frame = child;
    }
    scope = frame;
  }
  for (const part of locator.chain ?? []) {
    const found = refinedIn(scope, part);
    scope = part.frame === true ? found.contentFrame() : found;
  }
  for (const part of locator.within ?? []) {
    const element = scope.locator(part).first();
    const frame = await element
      .evaluate((el) => el.tagName === 'IFRAME' || el.tagName === 'FRAME')
      .catch(() => false);
    scope = frame ? element.contentFrame() : element;
  }
  return refinedIn(scope, locator);
}

/** A Recorder frame index the page does not have (yet): the step finds nothing there. */
export class FrameMissing extends Error {
  constructor(path: readonly number[], children: number) {
    super(
      `the page has no frame ${path.join(' > ')} (the frame there has ${children} child frame${children === 1 ? '' : 's'})`,
    );
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
  page: Page | Frame,
  locators: readonly SeleniumLocator[],
  waitMs = LOCATE_WAIT_MS,
): Promise<Found | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    for (const locator of locators) {
      const element = (await resolveLocator(page, locator).catch(() => null))?.first();
      const count = element === undefined ? 0 : await element.count().catch(() => 0);
      if (element !== undefined && count > 0) return { element, used: locatorText(locator) };
    }
    if (Date.now() >= deadline) return null;
    await page.waitForTimeout(POLL_MS);
  }
}

/** Why a locator cannot be used at all (invalid CSS or XPath), for a message; undefined when it can. */
export async function locatorProblem(
  page: Page | Frame,
  locator: SeleniumLocator,
): Promise<string | undefined> {
  try {
    await (await resolveLocator(page, locator)).count();
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    if (error instanceof FrameMissing) return `${locatorText(locator)} cannot be looked for: ${message}`;
    return `${locatorText(locator)} is not a valid ${locator.by === 'xpath' ? 'XPath' : 'selector'} (${message})`;
  }
}
