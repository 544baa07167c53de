import { contract } from '@aqa/contract';
import type { CallResult, FunctionalResult, UiStepDetails } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderApp, signInAs, TEST_USER } from '@/test/render';

/*
 * A recorded test's step on the functional result screen (docs/recorded-ui-tests.md "Results"): each
 * command by its recorder's name, a failed assertion's expected and actual apart with the screenshot
 * taken as it failed, and the pages the commands opened. The answers are parsed by the contract's own
 * schema of GET /api/functional/get-test-result, so a change of the wire shape fails here first. The
 * Selenium IDE step is what the UI runner answered for packages/ui-runner/test-fixtures/sign-in-fails.side
 * against its sign-in page, with command 6 turned into a `verify` of an element the page lacks.
 */

const ID = 'fc_recorded';
const ORIGIN = 'http://127.0.0.1:35027';
const parseResult = (value: unknown): FunctionalResult =>
  contract.functional.result.schema.response[200].parse(value);

const SIGN_IN: CallResult = {
  api_name: 'Sign in',
  method: 'GET',
  url: `${ORIGIN}/hello?name=`,
  status_code: 200,
  response_time: 374.17,
  success: false,
  iteration: 1,
  error:
    "Selenium IDE test 'Sign in', command 6 `verifyElementPresent id=welcome` — expected an element by id: welcome; none is on the page",
  validation_details: [
    {
      type: 'page_title',
      name: 'assertTitle Sign in',
      expected: 'Sign in',
      actual: 'Sign in',
      passed: true,
      message: 'the title is "Sign in"',
    },
    {
      type: 'element_exists',
      name: 'verifyElementPresent id=welcome',
      expected: 'present',
      actual: null,
      passed: false,
      message: 'expected an element by id: welcome; none is on the page',
    },
    {
      type: 'contains_text',
      name: 'assertText id=out Hello Ada',
      expected: 'Hello Ada',
      actual: 'Hello',
      passed: false,
      message: 'expected the text "Hello Ada" in the element by id: out, found "Hello"',
    },
  ],
  ui: {
    timings: { ttfb: 26.6, dom_content_loaded: 85.2, load: 86.2 },
    vitals: { fcp: 100, lcp: null, cls: 0 },
    console_errors: [],
    failed_requests: [],
    screenshots: [
      { id: 's1', label: 'Page', failure: false },
      { id: 's2', label: 'Page', failure: false },
      { id: 's3', label: 'Failure', failure: true },
      { id: 's4', label: 'Failure', failure: true },
    ],
    actions: [
      {
        action: 'open /',
        locator: null,
        passed: true,
        message: `opened ${ORIGIN}/ (status 200)`,
        duration_ms: 75.19,
        at: "Selenium IDE test 'Sign in', command 1",
      },
      {
        action: 'assertTitle Sign in',
        locator: null,
        passed: true,
        message: 'the title is "Sign in"',
        duration_ms: 2.23,
        at: "Selenium IDE test 'Sign in', command 2",
        expected: 'Sign in',
        actual: 'Sign in',
      },
      {
        action: 'click id=go',
        locator: 'id: go',
        passed: true,
        message: 'clicked the element by id: go',
        duration_ms: 203.88,
        at: "Selenium IDE test 'Sign in', command 3",
      },
      {
        action: 'echo signed in',
        locator: null,
        passed: true,
        message: 'signed in',
        duration_ms: 0.22,
        at: "Selenium IDE test 'Sign in', command 5",
      },
      {
        action: 'verifyElementPresent id=welcome',
        locator: 'id: welcome',
        passed: false,
        message: 'expected an element by id: welcome; none is on the page',
        duration_ms: 1004.5,
        at: "Selenium IDE test 'Sign in', command 6",
        expected: 'present',
        actual: null,
      },
      {
        action: 'assertText id=out Hello Ada',
        locator: 'id: out',
        passed: false,
        message: 'expected the text "Hello Ada" in the element by id: out, found "Hello"',
        duration_ms: 9.23,
        at: "Selenium IDE test 'Sign in', command 7",
        expected: 'Hello Ada',
        actual: 'Hello',
      },
    ],
    pages: [
      {
        url: `${ORIGIN}/`,
        action: 0,
        timings: { ttfb: 26.3, dom_content_loaded: 51.4, load: 59.5 },
        vitals: { fcp: 76, lcp: 76, cls: 0 },
        screenshot: { id: 's1', label: 'Page', failure: false },
      },
      {
        url: `${ORIGIN}/hello?name=`,
        action: 2,
        timings: { ttfb: 26.6, dom_content_loaded: 85.2, load: 86.2 },
        vitals: { fcp: 100, lcp: null, cls: 0 },
        screenshot: { id: 's2', label: 'Page', failure: false },
      },
    ],
  },
};

function runOf(steps: CallResult[]): FunctionalResult {
  const failed = steps.filter((step) => !step.success).length;
  return parseResult({
    test_id: ID,
    plan_id: 'p_recorded',
    test_name: 'Sign in project',
    description: '',
    status: failed > 0 ? 'failed' : 'completed',
    test_type: 'ui',
    source: 'ui_url_input',
    start_time: '2026-12-04T10:00:00Z',
    end_time: '2026-12-04T10:00:03Z',
    summary: {
      total_requests: steps.length,
      successful_requests: steps.length - failed,
      failed_requests: failed,
      validation_failures: failed,
    },
    validation_results: steps,
    api_results: [],
    timeline_data: [],
  });
}

/** Each screenshot's bytes differ in length, so an image's object URL tells which one it shows. */
const SHOT_BYTES: Record<string, number> = { s1: 11, s2: 12, s3: 13, s4: 14, s5: 15 };

beforeEach(() => {
  signInAs();
  // jsdom has no object URLs: each names the size of the bytes it holds.
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => `blob:${blob.size}`,
      revokeObjectURL: () => undefined,
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

function serve(result: FunctionalResult) {
  const shots = Object.fromEntries(
    Object.entries(SHOT_BYTES).map(([id, size]) => [
      `GET /api/functional/screenshot/${ID}/${id}`,
      () => {
        const jpeg = new Uint8Array(size).fill(1);
        jpeg.set([0xff, 0xd8]);
        return new Response(jpeg, { status: 200, headers: { 'Content-Type': 'image/jpeg' } });
      },
    ]),
  );
  vi.stubGlobal(
    'fetch',
    createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      [`GET /api/functional/get-test-result/${ID}`]: () => json(result),
      [`GET /api/functional/get-test-status/${ID}`]: () => json({ test_id: ID, status: result.status }),
      ...shots,
    }),
  );
}

/** The object URL an element's image shows once fetched: `blob:<size>`, the size naming the shot. */
async function shownShot(element: HTMLElement): Promise<string> {
  const image = await within(element).findByRole('img', { name: /^Screenshot of / });
  const size = Number(image.getAttribute('src')?.replace('blob:', ''));
  return Object.entries(SHOT_BYTES).find(([, bytes]) => bytes === size)?.[0] ?? 'unknown';
}

// Whole screens rendered in jsdom: seconds each on a busy 2-core machine.
describe('Functional result screen, a recorded UI test', { timeout: 20_000 }, () => {
  it('names each command by its recorder, and shows a failed one’s expected, actual and screenshot', async () => {
    serve(runOf([SIGN_IN]));
    renderApp(`/functional-test-result/${ID}`);
    const step = await screen.findByTestId('call-result');
    const card = within(step);
    expect(card.getByTestId('ui-actions')).toHaveTextContent('Actions (4/6 passed)');
    const rows = card.getAllByTestId('ui-action');
    expect(rows.map((row) => within(row).getByTestId('ui-action-at').textContent)).toEqual([
      "Selenium IDE test 'Sign in', command 1",
      "Selenium IDE test 'Sign in', command 2",
      "Selenium IDE test 'Sign in', command 3",
      "Selenium IDE test 'Sign in', command 5",
      "Selenium IDE test 'Sign in', command 6",
      "Selenium IDE test 'Sign in', command 7",
    ]);
    expect(within(rows[1]!).getByTestId('ui-action-written')).toHaveTextContent('assertTitle Sign in');
    // A passed assertion says what it found in its message; expected and actual are a failure's.
    expect(within(rows[1]!).queryByTestId('ui-action-values')).not.toBeInTheDocument();
    expect(within(rows[1]!).queryByTestId('ui-screenshot')).not.toBeInTheDocument();

    const verify = within(rows[4]!);
    expect(rows[4]).toHaveAttribute('data-passed', 'false');
    expect(verify.getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    expect(verify.getByTestId('ui-action-written')).toHaveTextContent('verifyElementPresent id=welcome');
    expect(verify.getByTestId('ui-action-locator')).toHaveTextContent('id: welcome');
    expect(verify.getByTestId('ui-action-message')).toHaveTextContent(
      'expected an element by id: welcome; none is on the page',
    );
    expect(verify.getByTestId('ui-action-values')).toHaveTextContent('Expected: present');
    // The element was not there: no actual value, said in words rather than left blank.
    expect(verify.getByTestId('ui-action-actual')).toHaveTextContent('nothing found');
    expect(verify.getByTestId('ui-screenshot')).toHaveAttribute('data-failure', 'true');
    expect(await shownShot(rows[4]!)).toBe('s3');

    const assertText = within(rows[5]!);
    expect(assertText.getByTestId('ui-action-expected')).toHaveTextContent('Hello Ada');
    expect(assertText.getByTestId('ui-action-actual')).toHaveTextContent(/^Hello$/);
    expect(await shownShot(rows[5]!)).toBe('s4');
    // Every screenshot is shown where it belongs: none is left for a "Screenshots" list.
    expect(card.queryByTestId('ui-screenshots')).not.toBeInTheDocument();
  });

  it('lists the pages the commands opened with their timings, Web Vitals and screenshot', async () => {
    serve(runOf([SIGN_IN]));
    const user = userEvent.setup();
    renderApp(`/functional-test-result/${ID}`);
    const pages = await screen.findByTestId('ui-pages');
    expect(pages).toHaveTextContent('Pages (2)');
    expect(screen.getByTestId('ui-page-load-note')).toHaveTextContent('The page the step ended on.');
    const [home, hello] = within(pages).getAllByTestId('ui-page');
    const first = within(home!);
    expect(first.getByTestId('ui-page-url')).toHaveTextContent(`${ORIGIN}/`);
    expect(first.getByTestId('ui-page-figure-ttfb')).toHaveTextContent('26.3 ms');
    expect(first.getByTestId('ui-page-figure-dom_content_loaded')).toHaveTextContent('51.4 ms');
    expect(first.getByTestId('ui-page-figure-load')).toHaveTextContent('59.5 ms');
    expect(first.getByTestId('ui-page-figure-fcp')).toHaveAttribute('data-rating', 'good');
    expect(first.getByTestId('ui-page-figure-lcp')).toHaveTextContent('76 ms');
    expect(first.getByTestId('ui-page-figure-cls')).toHaveTextContent('0Good');
    expect(await shownShot(home!)).toBe('s1');

    const second = within(hello!);
    expect(second.getByTestId('ui-page-url')).toHaveTextContent(`${ORIGIN}/hello?name=`);
    // LCP was not reported for this page: said so, neither a number nor a rating.
    const lcp = second.getByTestId('ui-page-figure-lcp');
    expect(lcp).toHaveTextContent('not reported');
    expect(lcp).toHaveAttribute('data-rating', 'none');
    expect(within(lcp).queryByTestId('ui-figure-rating')).not.toBeInTheDocument();
    expect(await shownShot(hello!)).toBe('s2');

    // The page's thumbnail opens it full size, named by its place among the pages.
    const open = second.getByRole('button', { name: 'Enlarge screenshot: Page 2' });
    await waitFor(() => expect(open).toBeEnabled());
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in — Page 2' });
    expect(within(dialog).getByRole('img', { name: 'Screenshot of Sign in: Page 2' })).toHaveAttribute(
      'src',
      `blob:${SHOT_BYTES.s2}`,
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps failure screenshots apart when it cannot tell whose they are, and says a page kept none', async () => {
    // A soft verify and an assert failed, but only one failure screenshot was kept between them (the
    // other page could not be drawn); the second page came after the run's budget of page screenshots.
    const ui: UiStepDetails = {
      timings: { ttfb: 31, dom_content_loaded: 60, load: 64 },
      vitals: { fcp: 88, lcp: 88, cls: 0.31 },
      console_errors: [],
      failed_requests: [],
      screenshots: [
        { id: 's1', label: 'Page', failure: false },
        { id: 's5', label: 'Failure', failure: true },
      ],
      actions: [
        {
          action: 'open /',
          locator: null,
          passed: true,
          message: `opened ${ORIGIN}/ (status 200)`,
          duration_ms: 70,
          at: "Selenium IDE test 'Checkout', command 1",
        },
        {
          action: 'click id=go',
          locator: 'id: go',
          passed: true,
          message: 'clicked the element by id: go',
          duration_ms: 180,
          at: "Selenium IDE test 'Checkout', command 2",
        },
        {
          action: 'verifyText id=out Hello Ada',
          locator: 'id: out',
          passed: false,
          message: 'expected the text "Hello Ada" in the element by id: out, found "Hello"',
          duration_ms: 8,
          at: "Selenium IDE test 'Checkout', command 3",
          expected: 'Hello Ada',
          actual: 'Hello',
        },
        {
          action: 'assertTitle Paid',
          locator: null,
          passed: false,
          message: 'expected the title "Paid", got "Welcome"',
          duration_ms: 2,
          at: "Selenium IDE test 'Checkout', command 4",
          expected: 'Paid',
          actual: 'Welcome',
        },
      ],
      pages: [
        {
          url: `${ORIGIN}/`,
          action: 0,
          timings: { ttfb: 25, dom_content_loaded: 50, load: 58 },
          vitals: { fcp: 70, lcp: 70, cls: 0 },
          screenshot: { id: 's1', label: 'Page', failure: false },
        },
        {
          url: `${ORIGIN}/hello?name=`,
          action: 1,
          timings: { ttfb: 31, dom_content_loaded: 60, load: 64 },
          vitals: { fcp: 88, lcp: 88, cls: 0.31 },
          screenshot: null,
        },
      ],
    };
    const checkout: CallResult = {
      ...SIGN_IN,
      api_name: 'Checkout',
      error:
        'Selenium IDE test \'Checkout\', command 4 `assertTitle Paid` — expected the title "Paid", got "Welcome"',
      validation_details: [],
      ui,
    };
    serve(runOf([checkout]));
    renderApp(`/functional-test-result/${ID}`);
    const step = within(await screen.findByTestId('call-result'));
    const rows = step.getAllByTestId('ui-action');
    for (const row of rows) expect(within(row).queryByTestId('ui-screenshot')).not.toBeInTheDocument();
    // Both failures still show what was expected and found.
    expect(within(rows[2]!).getByTestId('ui-action-actual')).toHaveTextContent('Hello');
    expect(within(rows[3]!).getByTestId('ui-action-expected')).toHaveTextContent('Paid');
    expect(within(rows[3]!).getByTestId('ui-action-actual')).toHaveTextContent('Welcome');
    const rest = step.getByTestId('ui-screenshots');
    expect(
      within(rest)
        .getAllByTestId('ui-screenshot')
        .map((shot) => shot.dataset.failure),
    ).toEqual(['true']);
    expect(await shownShot(rest)).toBe('s5');
    const [, second] = step.getAllByTestId('ui-page');
    expect(within(second!).getByTestId('ui-page-no-shot')).toHaveTextContent('No screenshot kept');
    expect(within(second!).getByTestId('ui-page-figure-cls')).toHaveTextContent('Poor');
  });

  it('shows a script step without recorder names as before: the action as written and its line', async () => {
    const ui: UiStepDetails = {
      ...SIGN_IN.ui!,
      screenshots: [{ id: 's5', label: 'Failure', failure: true }],
      actions: [
        {
          action: 'assertTextByID',
          line: 14,
          locator: 'id: total',
          passed: false,
          message: 'expected the text "42" in the element by id: total, found "41"',
          duration_ms: 6,
          expected: '42',
          actual: '41',
        },
      ],
      pages: [{ ...SIGN_IN.ui!.pages![0]!, action: null, screenshot: null }],
    };
    serve(runOf([{ ...SIGN_IN, api_name: 'Checkout', ui }]));
    renderApp(`/functional-test-result/${ID}`);
    const row = within(await screen.findByTestId('ui-action'));
    expect(row.queryByTestId('ui-action-at')).not.toBeInTheDocument();
    expect(row.getByTestId('ui-action-written')).toHaveTextContent('assertTextByID');
    expect(row.getByText('Line 14')).toBeInTheDocument();
    expect(row.getByTestId('ui-action-values')).toHaveTextContent('Expected: 42');
    expect(await shownShot(screen.getByTestId('ui-action'))).toBe('s5');
  });

  it('says the same in Korean', async () => {
    serve(runOf([SIGN_IN]));
    renderApp(`/functional-test-result/${ID}`, { language: 'ko' });
    const pages = await screen.findByTestId('ui-pages');
    expect(pages).toHaveTextContent('페이지 (2)');
    const [, hello] = within(pages).getAllByTestId('ui-page');
    expect(within(hello!).getByTestId('ui-page-figure-lcp')).toHaveTextContent('보고되지 않음');
    const verify = screen.getAllByTestId('ui-action')[4]!;
    expect(within(verify).getByTestId('ui-action-values')).toHaveTextContent('기대값: present');
    expect(within(verify).getByTestId('ui-action-actual')).toHaveTextContent('찾은 것 없음');
  });

  it('refuses, through the contract, a step whose pages lose a field the screen reads', () => {
    const { vitals: _dropped, ...page } = SIGN_IN.ui!.pages![0]!;
    const broken = { ...SIGN_IN, ui: { ...SIGN_IN.ui, pages: [page] } };
    expect(() => runOf([broken as CallResult])).toThrow(/vitals/);
  });
});
