import { ImportError, readRecording } from '@aqa/converters';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { dismissNotices, noticeTexts } from '@/test/notices';
import { bodyOf, json, TEST_USER, type FetchMock } from '@/test/render';
import {
  answerFetchWith,
  callsTo,
  fill,
  openEditorScreen,
  setUpEditorScreenTests,
} from '../../test/editor-screen';

/*
 * The UI screen's action steps and "Import recording" (docs/adr/0030-recorded-ui-tests.md §6,
 * docs/recorded-ui-tests.md "Editing and uploading"). The parse-file mock reads the uploaded file with
 * the real Selenium IDE reader (@aqa/converters) and answers as the server's route does.
 */

/** A Selenium IDE project as Selenium IDE saves it: a commented-out command, fallbacks, a verify, a script. */
const SIDE = JSON.stringify({
  id: 'p1',
  version: '2.0',
  name: 'Sign in project',
  url: 'http://127.0.0.1:9',
  tests: [
    {
      id: 't1',
      name: 'Sign in',
      commands: [
        { id: 'c1', comment: '', command: 'open', target: '/sign-in.html', targets: [], value: '' },
        {
          id: 'c2',
          comment: '',
          command: 'type',
          target: 'id=email',
          targets: [
            ['id=email', 'id'],
            ['css=#email', 'css:finder'],
          ],
          value: 'ada@example.com',
        },
        { id: 'c3', comment: '', command: '//click', target: 'id=old', targets: [], value: '' },
        { id: 'c4', comment: '', command: 'click', target: 'css=#go', targets: [], value: '' },
        {
          id: 'c5',
          comment: '',
          command: 'executeScript',
          target: 'return document.title',
          targets: [],
          value: 'title',
        },
        { id: 'c6', comment: '', command: 'verifyText', target: 'id=out', targets: [], value: 'Hello Ada' },
      ],
    },
  ],
  suites: [],
  urls: [],
  plugins: [],
});

/** POST /api/functional/parse-file as the server answers it, the file read by the real readers. */
async function parseFile(init: RequestInit): Promise<Response> {
  const form = init.body as FormData;
  const file = form.get('file') as File;
  if (form.get('test_type') !== 'ui') return json({ detail: 'expected test_type ui' }, 400);
  const text = await file.text();
  if (text.includes('"openapi"'))
    return json({
      script: 'execution: []',
      apis: [],
      format: 'swagger',
      test_type: 'ui',
      warnings: [],
      script_warnings: [],
      steps: [],
      info: {
        format: 'swagger',
        kind: 'OpenAPI 3.0.3',
        title: 'Pets',
        servers: [],
        requests: 0,
        methods: {},
      },
      needs_value: [],
    });
  try {
    const read = readRecording({ name: file.name, text });
    if (read === undefined) return json({ detail: `${file.name}: not a file the import knows` }, 400);
    return json({
      script: '',
      apis: [],
      format: read.format,
      test_type: 'ui',
      warnings: read.warnings,
      script_warnings: [],
      steps: [],
      info: {
        format: read.format,
        kind: read.format,
        title: read.plan.test_name,
        servers: [],
        requests: read.counts.actions,
        methods: {},
      },
      needs_value: [],
      plan: read.plan,
      recording: read.counts,
    });
  } catch (error) {
    if (error instanceof ImportError) return json({ detail: error.message }, 400);
    throw error;
  }
}

const kinds = () =>
  screen
    .getAllByTestId(/^ui-test-0-action-\d+$/)
    .map(
      (row) =>
        within(row).queryByTestId<HTMLSelectElement>(/-kind$/)?.value ??
        within(row).getByTestId(/-kind-badge$/).textContent,
    );

describe('the UI screen’s action steps and Import recording', { timeout: 30_000 }, () => {
  let fetchMock: FetchMock;
  setUpEditorScreenTests();

  beforeEach(() => {
    fetchMock = answerFetchWith({
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/functional/parse-file': parseFile,
      'POST /api/functional/save-config': () => json({ id: 'ui-1', test_id: 'ui-1' }, 201),
    });
  });

  const openScreen = () => openEditorScreen('/functional-test/ui-url-input', 'functional-ui-page');

  it('imports a Selenium IDE project with the button, edits, adds and removes steps, and saves them', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    const help = screen.getByTestId('ui-recording-help');
    expect(help).toHaveTextContent('Record a test instead of typing it');
    expect(help).toHaveTextContent('Selenium IDE: record, then Save project');
    expect(help).toHaveTextContent('Chrome DevTools Recorder');
    expect(help).toHaveTextContent('npx playwright codegen');
    expect(screen.getByTestId('import-recording-file')).toHaveAttribute(
      'accept',
      expect.stringContaining('.side'),
    );

    await user.upload(screen.getByTestId('import-recording-file'), new File([SIDE], 'sign-in.side'));
    await waitFor(() =>
      expect(noticeTexts()).toEqual([
        'Imported 1 UI tests with 5 steps from sign-in.side',
        '1 commented-out commands of sign-in.side were skipped, as the recorder skips them',
      ]),
    );
    expect(screen.getByTestId('test-name')).toHaveValue('Sign in project');
    expect(screen.getByTestId('ui-test-0-name')).toHaveValue('Sign in');
    expect(screen.getByTestId('ui-test-0-url')).toHaveValue('');
    expect(screen.getByTestId('ui-test-0-action-count')).toHaveTextContent('5 steps');
    expect(kinds()).toEqual(['go', 'type', 'click', 'executeScript', 'assertText']);
    expect(screen.getByTestId('ui-test-0-action-0-value')).toHaveValue('http://127.0.0.1:9/sign-in.html');
    expect(screen.getByTestId('ui-test-0-action-1-by')).toHaveValue('id');
    expect(screen.getByTestId('ui-test-0-action-1-locator')).toHaveValue('email');
    expect(screen.getByTestId('ui-test-0-action-1-fallbacks')).toHaveTextContent('+1 fallbacks');
    // A kind with no fields here: its description, kept as recorded.
    expect(screen.getByTestId('ui-test-0-action-3-description')).toHaveTextContent(
      'return document.title → title',
    );
    expect(screen.getByTestId('ui-test-0-action-3')).toHaveTextContent('Kept as recorded');
    // The verify is an assertion that goes on after a failure.
    expect(screen.getByTestId('ui-test-0-action-4-soft')).toBeChecked();
    expect(screen.getByTestId('ui-test-0-action-4-value')).toHaveValue('Hello Ada');

    // Edit the verify's text, turn it into a hard assertion; add an echo; remove the click; move the echo up.
    await user.clear(screen.getByTestId('ui-test-0-action-4-value'));
    await fill(user, screen.getByTestId('ui-test-0-action-4-value'), 'Hello Grace');
    await user.click(screen.getByTestId('ui-test-0-action-4-soft'));
    await user.selectOptions(screen.getByTestId('ui-test-0-new-action-kind'), 'echo');
    await user.click(screen.getByTestId('ui-test-0-add-action'));
    await fill(user, screen.getByTestId('ui-test-0-action-5-value'), 'signed in as {{title}}');
    await user.click(screen.getByTestId('ui-test-0-action-2-remove'));
    await user.click(screen.getByTestId('ui-test-0-action-4-up'));
    expect(kinds()).toEqual(['go', 'type', 'executeScript', 'echo', 'assertText']);
    expect(screen.getByTestId('ui-test-0-action-0-up')).toBeDisabled();
    expect(screen.getByTestId('ui-test-0-action-4-down')).toBeDisabled();

    dismissNotices();
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Saved! Test ID: ui-1'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    const sent = bodyOf(init) as { apis: { url: string; actions: unknown[] }[] };
    const read = readRecording({ name: 'sign-in.side', text: SIDE })!.plan.apis[0]!.actions;
    expect(sent.apis[0]!.url).toBe('');
    expect(sent.apis[0]!.actions).toEqual([
      // Untouched: exactly as read.
      read[0],
      read[1],
      read[3],
      {
        kind: 'echo',
        source: { action: 'echo signed in as {{title}}', path: 'Added in the UI editor' },
        text: 'signed in as {{title}}',
      },
      {
        kind: 'assertText',
        source: {
          action: 'assertText id: out Hello Grace',
          path: "Selenium IDE test 'Sign in', command 6, edited in the UI editor",
        },
        locators: [{ by: 'id', value: 'out' }],
        expected: 'Hello Grace',
      },
    ]);
  });

  it('names a step’s problem on its field and blocks Save until it is put right; a new kind keeps the locator', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await fill(user, screen.getByTestId('test-name'), 'Hand-made');
    await user.click(screen.getByTestId('add-ui-test'));
    await fill(user, screen.getByTestId('ui-test-0-name'), 'Home');
    await fill(user, screen.getByTestId('ui-test-0-url'), 'http://127.0.0.1:9/');
    expect(screen.getByTestId('ui-test-0-actions')).toHaveTextContent('No steps');
    await user.selectOptions(screen.getByTestId('ui-test-0-new-action-kind'), 'go');
    await user.click(screen.getByTestId('ui-test-0-add-action'));
    await user.selectOptions(screen.getByTestId('ui-test-0-new-action-kind'), 'waitFor');
    await user.click(screen.getByTestId('ui-test-0-add-action'));
    await user.clear(screen.getByTestId('ui-test-0-action-1-ms'));
    await fill(user, screen.getByTestId('ui-test-0-action-1-ms'), '5 s');

    await user.click(screen.getByTestId('functional-save'));
    expect(noticeTexts()).toEqual(['UI Test #1 step 1: a URL is required']);
    expect(
      within(screen.getByTestId('functional-problems'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'UI Test #1 step 1: a URL is required',
      'UI Test #1 step 2: a locator is required',
      'UI Test #1 step 2: the time must be a whole number of ms from 0 to 600000',
    ]);
    expect(screen.getByTestId('ui-test-0-action-0-value-error')).toHaveTextContent('a URL is required');
    expect(screen.getByTestId('ui-test-0-action-1-locator-error')).toHaveTextContent('a locator is required');
    expect(screen.getByTestId('ui-test-0-action-1-ms-error')).toHaveTextContent('whole number of ms');
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(0);

    await fill(user, screen.getByTestId('ui-test-0-action-0-value'), '/account');
    await fill(user, screen.getByTestId('ui-test-0-action-1-locator'), '#welcome');
    await user.clear(screen.getByTestId('ui-test-0-action-1-ms'));
    await fill(user, screen.getByTestId('ui-test-0-action-1-ms'), '5000');
    // Waiting becomes asserting: the locator stays.
    await user.selectOptions(screen.getByTestId('ui-test-0-action-1-kind'), 'assertVisible');
    expect(screen.getByTestId('ui-test-0-action-1-locator')).toHaveValue('#welcome');
    expect(screen.queryByTestId('ui-test-0-action-1-ms')).not.toBeInTheDocument();
    expect(screen.queryByTestId('functional-problems')).not.toBeInTheDocument();

    dismissNotices();
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Saved! Test ID: ui-1'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    expect((bodyOf(init) as { apis: { actions: unknown[] }[] }).apis[0]!.actions).toEqual([
      { kind: 'go', source: { action: 'go /account', path: 'Added in the UI editor' }, url: '/account' },
      {
        kind: 'assertVisible',
        source: { action: 'assertVisible css: #welcome', path: 'Added in the UI editor' },
        locators: [{ by: 'css', value: '#welcome' }],
      },
    ]);
  });

  it('shows a Chrome Recorder export’s steps the editor has no fields for as recorded, and saves them unchanged', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    const recording = JSON.stringify({
      title: 'Checkout',
      steps: [
        {
          type: 'setViewport',
          width: 1024,
          height: 768,
          deviceScaleFactor: 1,
          isMobile: false,
          hasTouch: false,
          isLandscape: false,
        },
        { type: 'navigate', url: 'http://127.0.0.1:9/cart' },
        { type: 'click', selectors: [['aria/Check out'], ['#checkout']], offsetX: 5, offsetY: 6 },
        { type: 'waitForElement', selectors: [['#done']] },
      ],
    });
    await fill(user, screen.getByTestId('test-name'), 'Kept name');
    await user.upload(screen.getByTestId('import-recording-file'), new File([recording], 'checkout.json'));
    await waitFor(() =>
      expect(noticeTexts()).toContain('Imported 1 UI tests with 4 steps from checkout.json'),
    );
    // A name typed before stays.
    expect(screen.getByTestId('test-name')).toHaveValue('Kept name');
    expect(kinds()).toEqual(['setViewport', 'go', 'click', 'waitForElement']);
    expect(screen.getByTestId('ui-test-0-action-0-description')).toHaveTextContent('1024×768');
    expect(screen.getByTestId('ui-test-0-action-2-by')).toHaveValue('aria');
    expect(screen.getByTestId('ui-test-0-action-2-fallbacks')).toHaveTextContent('+1 fallbacks');
    expect(screen.getByTestId('ui-test-0-action-2-kept')).toHaveTextContent('Kept as recorded: offset: 5,6');

    dismissNotices();
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Saved! Test ID: ui-1'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    const read = readRecording({ name: 'checkout.json', text: recording })!.plan.apis[0]!.actions;
    expect((bodyOf(init) as { apis: { actions: unknown[] }[] }).apis[0]!.actions).toEqual(read);
  });

  it('says when a file is not a recording, and names what a refused recording holds', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.upload(
      screen.getByTestId('import-recording-file'),
      new File(['{"openapi": "3.0.3"}'], 'pets.json'),
    );
    await waitFor(() =>
      expect(noticeTexts()).toEqual([
        'pets.json is not a browser recording (it reads as OpenAPI 3.0.3). Import a Selenium IDE project (.side), a Chrome DevTools Recorder JSON export or a Playwright codegen script; API files belong on the Functional URL Input screen.',
      ]),
    );
    dismissNotices();
    const plugin = SIDE.replace('"command":"click"', '"command":"runPluginThing"');
    await user.upload(screen.getByTestId('import-recording-file'), new File([plugin], 'plugin.side'));
    await waitFor(() => expect(noticeTexts()).toHaveLength(1));
    expect(noticeTexts()[0]).toMatch(
      /^Could not import plugin\.side: .*Selenium IDE test 'Sign in', command 4 `runPluginThing css=#go`/,
    );
    expect(screen.getByTestId('ui-no-tests')).toBeInTheDocument();
  });
});
