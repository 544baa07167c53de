import type { Page } from 'playwright-core';
import {
  innerPhrase,
  type InnerPhrase,
  said,
  type Said,
  UI_VALIDATION_TYPES,
  type FunctionalValidation,
  type ValidationDetail,
} from '@aqa/plan';

/*
 * A UI step's checks judged on the loaded page (docs/design.md §9 "UI tests"), each into { type,
 * expected, actual, passed, message } worded like an API rule's: contains_text searches the page's
 * visible text; element_exists finds a CSS selector, or XPath when it starts with /, ( or xpath=;
 * page_title compares the whole title, as a person reading the tab does (surrounding spaces aside).
 * A page without checks passes when its document answered 2xx or 3xx, as an API call without rules
 * is judged by its status. Each message is kept beside its words as a code and parameters, which screens
 * word in the user's language (docs/adr/0025-phrases.md).
 */

/** How much of the page's text `actual` quotes. */
const QUOTE_CHARS = 200;

function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

type Detail = (passed: boolean, actual: string | null, message: Said) => ValidationDetail;

function detailOf(validation: FunctionalValidation): Detail {
  return (passed, actual, message) => ({
    type: validation.type,
    ...(validation.name === '' ? {} : { name: validation.name }),
    expected: validation.expected_value,
    actual,
    passed,
    message: message.text,
    message_phrase: message.phrase,
  });
}

/** What a check expects, as a failure's message begins. */
function expectation(validation: FunctionalValidation): InnerPhrase {
  const expected = validation.expected_value;
  switch (validation.type) {
    case 'contains_text':
      return innerPhrase('expect.ui.contains', { expected });
    case 'element_exists':
      return innerPhrase('expect.ui.selector', { expected });
    case 'page_title':
      return innerPhrase('expect.ui.title', { expected });
    default:
      return innerPhrase('expect.ui.other', { type: validation.type, expected });
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
  if (failure !== null) {
    return detail(false, null, said('ui.noPage', { expectation: expectation(validation), failure }));
  }
  const expected = validation.expected_value;
  switch (validation.type) {
    case 'contains_text': {
      const text = await page.evaluate(() => document.body?.innerText ?? '');
      return text.includes(expected)
        ? detail(true, quote(text), said('ui.contains.passed', { expected }))
        : detail(false, quote(text), said('ui.contains.failed', { expected }));
    }
    case 'element_exists': {
      let count: number;
      try {
        count = await page.locator(elementSelector(expected)).count();
      } catch (error) {
        const why = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        return detail(false, null, said('ui.selector.invalid', { expected, why }));
      }
      const actual = count === 1 ? '1 element' : `${count} elements`;
      return count > 0
        ? detail(true, actual, said('ui.selector.passed', { count, expected }))
        : detail(false, actual, said('ui.selector.failed', { expected }));
    }
    case 'page_title': {
      const title = await page.title();
      return title.trim() === expected.trim()
        ? detail(true, title, said('ui.title.passed', { title }))
        : detail(false, title, said('ui.title.failed', { expected, title }));
    }
    default:
      return detail(
        false,
        null,
        said('ui.notUiRule', { types: UI_VALIDATION_TYPES.join(', '), type: validation.type }),
      );
  }
}

/** The rule a page without checks is judged by: its document answered 2xx or 3xx. */
export function judgeDocumentStatus(status: number | null, failure: string | null): ValidationDetail {
  const expected = '2xx or 3xx';
  const detail = (passed: boolean, message: Said): ValidationDetail => ({
    type: 'status_code',
    name: 'page loaded',
    expected,
    actual: status === null ? null : String(status),
    passed,
    message: message.text,
    message_phrase: message.phrase,
  });
  if (failure !== null) {
    const expectation = innerPhrase('expect.ui.page', { expected });
    return detail(false, said('ui.noPage', { expectation, failure }));
  }
  if (status === null) return detail(false, said('ui.page.noDocument', { expected }));
  return status >= 200 && status < 400
    ? detail(true, said('ui.page.passed', { status }))
    : detail(false, said('ui.page.failed', { expected, status }));
}
