import type { Page } from 'playwright-core';
import { UI_VALIDATION_TYPES, type FunctionalValidation, type ValidationDetail } from '@aqa/plan';

/*
 * A UI step's checks judged on the loaded page (docs/design.md §9 "UI tests"), each into { type,
 * expected, actual, passed, message } worded like an API rule's: contains_text searches the page's
 * visible text; element_exists finds a CSS selector, or XPath when it starts with /, ( or xpath=;
 * page_title compares the whole title, as a person reading the tab does (surrounding spaces aside).
 * A page without checks passes when its document answered 2xx or 3xx, as an API call without rules
 * is judged by its status.
 */

/** How much of the page's text `actual` quotes. */
const QUOTE_CHARS = 200;

function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

type Detail = (passed: boolean, actual: string | null, message: string) => ValidationDetail;

function detailOf(validation: FunctionalValidation): Detail {
  return (passed, actual, message) => ({
    type: validation.type,
    ...(validation.name === '' ? {} : { name: validation.name }),
    expected: validation.expected_value,
    actual,
    passed,
    message,
  });
}

/** What a check expects, as a failure's message begins. */
function expectation(validation: FunctionalValidation): string {
  const expected = validation.expected_value;
  switch (validation.type) {
    case 'contains_text':
      return `expected the page to contain "${expected}"`;
    case 'element_exists':
      return `expected an element matching ${expected}`;
    case 'page_title':
      return `expected the title "${expected}"`;
    default:
      return `expected ${validation.type} ${expected}`;
  }
}

/** A selector as Playwright reads it: XPath when it is written as one, CSS otherwise. */
export function elementSelector(expected: string): string {
  const trimmed = expected.trim();
  if (trimmed.startsWith('xpath=')) return trimmed;
  return trimmed.startsWith('/') || trimmed.startsWith('(') ? `xpath=${trimmed}` : trimmed;
}

/** Judges one check on the page; `failure` says why there is no page to check. */
export async function judgeUi(
  validation: FunctionalValidation,
  page: Page,
  failure: string | null,
): Promise<ValidationDetail> {
  const detail = detailOf(validation);
  if (failure !== null) return detail(false, null, `${expectation(validation)}, but ${failure}`);
  const expected = validation.expected_value;
  switch (validation.type) {
    case 'contains_text': {
      const text = await page.evaluate(() => document.body?.innerText ?? '');
      return text.includes(expected)
        ? detail(true, quote(text), `the page contains "${expected}"`)
        : detail(false, quote(text), `expected the page to contain "${expected}"; it does not`);
    }
    case 'element_exists': {
      let count: number;
      try {
        count = await page.locator(elementSelector(expected)).count();
      } catch (error) {
        const why = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        return detail(false, null, `"${expected}" is not a CSS selector or XPath query (${why})`);
      }
      const actual = count === 1 ? '1 element' : `${count} elements`;
      return count > 0
        ? detail(true, actual, `${actual} matching ${expected}`)
        : detail(false, actual, `expected an element matching ${expected}; none is on the page`);
    }
    case 'page_title': {
      const title = await page.title();
      return title.trim() === expected.trim()
        ? detail(true, title, `the title is "${title}"`)
        : detail(false, title, `expected the title "${expected}", got "${title}"`);
    }
    default:
      return detail(
        false,
        null,
        `A UI test checks ${UI_VALIDATION_TYPES.join(', ')}, not ${validation.type}`,
      );
  }
}

/** The rule a page without checks is judged by: its document answered 2xx or 3xx. */
export function judgeDocumentStatus(status: number | null, failure: string | null): ValidationDetail {
  const expected = '2xx or 3xx';
  const detail = (passed: boolean, message: string): ValidationDetail => ({
    type: 'status_code',
    name: 'page loaded',
    expected,
    actual: status === null ? null : String(status),
    passed,
    message,
  });
  if (failure !== null) return detail(false, `expected the page to answer ${expected}, but ${failure}`);
  if (status === null)
    return detail(false, `expected the page to answer ${expected}, but no document came back`);
  return status >= 200 && status < 400
    ? detail(true, `the page answered status ${status} (a page without checks passes on 2xx or 3xx)`)
    : detail(false, `expected the page to answer ${expected}, got ${status}`);
}
