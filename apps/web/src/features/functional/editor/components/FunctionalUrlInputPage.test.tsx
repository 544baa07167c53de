import { FunctionalPlanSchema } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm, dismissNotices, noticeTexts } from '@/test/notices';
import { bodyOf, json, mockFetch, TEST_USER, type FetchMock } from '@/test/render';
import {
  answerFetchWith,
  callsTo,
  fill,
  openEditorScreen,
  setUpEditorScreenTests,
} from '../../test/editor-screen';

/** A plan as GET /api/functional/get-test-config answers it. */
const SAVED = {
  id: 'fp-9',
  test_name: 'Saved chain',
  description: 'Sign in, then read the profile',
  concurrent_users: 3,
  iterations: 4,
  ramp_up_time: 2,
  test_duration: 5,
  think_time: 0,
  test_type: 'functional',
  source: 'url_input',
  apis: [
    {
      name: 'Sign in',
      url: 'http://127.0.0.1:9/login',
      method: 'POST',
      body: '{"user":"a"}',
      headers: { 'Content-Type': 'application/json' },
      captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
      validations: [{ type: 'status_code', expected_value: '200', enabled: true }],
    },
    {
      name: 'Profile',
      url: 'http://127.0.0.1:9/me',
      method: 'GET',
      headers: { Authorization: 'Bearer {{token}}' },
      timeout: 12,
      validations: [{ type: 'json_path', expected_value: '$.id == 7', enabled: false }],
    },
  ],
};

describe('the functional URL input screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;
  setUpEditorScreenTests();

  beforeEach(() => {
    fetchMock = answerFetchWith({
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/functional/save-config': () => json({ id: 'fp-1', test_id: 'fp-1' }, 201),
      'PUT /api/functional/update-config/fp-1': () => json({ id: 'fp-1', test_id: 'fp-1' }),
      'DELETE /api/functional/delete-config/fp-1': () => json({ message: 'deleted' }),
      'GET /api/functional/get-test-config/fp-9': () => json(SAVED),
      'POST /api/functional/run-test': () => json({ test_id: 'fc_42' }),
    });
  });

  const openScreen = (path = '/functional-test/url-input') =>
    openEditorScreen(path, 'functional-url-input-page');

  it('starts empty with the defaults, and offers the seven methods and a body only for POST, PUT and PATCH', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByTestId('functional-no-apis')).toHaveTextContent('No APIs configured');
    expect(screen.getByTestId('functional-save')).toBeDisabled();
    expect(screen.getByTestId('functional-start')).toBeDisabled();
    expect(screen.getByTestId('functional-start')).toHaveTextContent('Start API Functional Test');
    expect(screen.getByTestId('setting-concurrentUsers')).toHaveValue('1');
    expect(screen.getByTestId('setting-rampUp')).toHaveValue('0');
    expect(screen.getByTestId('setting-thinkTime')).toHaveValue('1');

    await user.click(screen.getByTestId('add-api'));
    expect(screen.getByTestId('functional-save')).toBeEnabled();
    expect(screen.getByTestId('api-0-timeout')).toHaveValue('30');
    expect(
      within(screen.getByTestId('api-0-method'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
    expect(screen.queryByTestId('api-0-tab-payload')).not.toBeInTheDocument();
    for (const method of ['POST', 'PUT', 'PATCH']) {
      await user.selectOptions(screen.getByTestId('api-0-method'), method);
      expect(screen.getByTestId('api-0-body')).toBeInTheDocument();
    }
    await user.selectOptions(screen.getByTestId('api-0-method'), 'HEAD');
    expect(screen.queryByTestId('api-0-tab-payload')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('api-0-remove'));
    expect(await answerConfirm(user, true)).toBe('Remove API 1 (Unnamed API) and its validation rules?');
    expect(screen.getByTestId('functional-no-apis')).toBeInTheDocument();
  });

  it('offers https:// for a URL typed without its scheme, in one click (issue 24)', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('add-api'));
    await user.click(screen.getByTestId('api-0-url'));
    await user.paste('localhost:8080/health');
    await user.click(await screen.findByTestId('api-0-url-https'));
    expect(screen.getByTestId('api-0-url')).toHaveValue('https://localhost:8080/health');
  });

  it('names the problems of docs/reference/02-running.md §5 in list order, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('add-api'));
    await user.click(screen.getByTestId('add-api'));
    await fill(user, screen.getByTestId('api-1-name'), '   ');
    await user.click(screen.getByTestId('functional-save'));
    expect(noticeTexts()).toEqual(['Test name is required']);
    expect(
      within(screen.getByTestId('functional-problems'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Test name is required',
      'API #1 name is required',
      'API #1 URL is required',
      'API #2 name is required',
      'API #2 URL is required',
    ]);
    expect(screen.getByTestId('test-name-error')).toHaveTextContent('Test name is required');
    expect(screen.getByTestId('api-1-url-error')).toHaveTextContent('API #2 URL is required');

    // A number out of bounds is refused with the model's message, not clamped.
    await fill(user, screen.getByTestId('test-name'), 'Checks');
    await user.clear(screen.getByTestId('setting-iterations'));
    await fill(user, screen.getByTestId('setting-iterations'), '5000');
    expect(screen.getByTestId('iterations-error')).toHaveTextContent(
      'Iterations must be a whole number from 1 to 1000',
    );
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(0);
  });

  it('adds a rule only with a good expected value, with a hint per type, and switches rules off', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('add-api'));
    const add = screen.getByTestId('api-0-rule-add');
    expect(add).toBeDisabled();
    await user.selectOptions(screen.getByTestId('api-0-rule-type'), 'header_value');
    expect(screen.getByTestId('api-0-rule-hint')).toHaveTextContent('Content-Type: application/json');
    await user.selectOptions(screen.getByTestId('api-0-rule-type'), 'json_path');
    expect(screen.getByTestId('api-0-rule-hint')).toHaveTextContent('$.user.id == 7');
    await fill(user, screen.getByTestId('api-0-rule-expected'), 'user.id == 7');
    expect(screen.getByTestId('api-0-rule-problem')).toHaveTextContent(
      'A JSON path starts with $, optionally followed by == value, != value or ~ regex',
    );
    expect(add).toBeDisabled();
    await user.clear(screen.getByTestId('api-0-rule-expected'));
    await fill(user, screen.getByTestId('api-0-rule-expected'), '$.user.id == 7');
    await fill(user, screen.getByTestId('api-0-rule-description'), 'the right user');
    await user.click(add);
    const rule = screen.getByTestId('api-0-rule-0');
    expect(rule).toHaveTextContent('Validation 1');
    expect(rule).toHaveTextContent('JSON path');
    expect(rule).toHaveTextContent('$.user.id == 7');
    expect(rule).toHaveTextContent('the right user');
    expect(screen.getByTestId('api-0-rule-expected')).toHaveValue('');
    await user.click(screen.getByTestId('api-0-rule-0-enabled'));
    expect(screen.getByTestId('api-0-rule-0-enabled')).not.toBeChecked();
    expect(screen.getByTestId('api-0-rules')).toHaveTextContent('0 of 1 enabled');
  });

  it('refuses a JSONPath that cannot be judged, with its reason, and takes a filter that judges (issue #27)', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('add-api'));
    const add = screen.getByTestId('api-0-rule-add');
    await user.selectOptions(screen.getByTestId('api-0-rule-type'), 'json_path');
    await fill(user, screen.getByTestId('api-0-rule-expected'), '$.roles[?(@==]');
    expect(screen.getByTestId('api-0-rule-problem')).toHaveTextContent(
      '$.roles[?(@==] does not close: ] at character 14 comes before its ( is closed',
    );
    expect(add).toBeDisabled();
    await user.clear(screen.getByTestId('api-0-rule-expected'));
    await fill(user, screen.getByTestId('api-0-rule-expected'), "$.roles[?(@ == 'qa')]");
    expect(screen.queryByTestId('api-0-rule-problem')).toBeNull();
    await user.click(add);
    expect(screen.getByTestId('api-0-rule-0')).toHaveTextContent("$.roles[?(@ == 'qa')]");
  });

  it('saves a new plan, then updates and deletes it, with the spec’s alerts', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen();
    await fill(user, screen.getByTestId('test-name'), 'Chain');
    await user.click(screen.getByTestId('add-api'));
    await fill(user, screen.getByTestId('api-0-name'), 'Sign in');
    await user.selectOptions(screen.getByTestId('api-0-method'), 'POST');
    await fill(user, screen.getByTestId('api-0-url'), 'http://127.0.0.1:9/login');
    await fill(user, screen.getByTestId('api-0-body'), '{"user":"a"}');
    await user.clear(screen.getByTestId('api-0-timeout'));
    await fill(user, screen.getByTestId('api-0-timeout'), 'abc');
    await user.click(screen.getByTestId('api-0-capture-add'));
    await fill(user, screen.getByTestId('api-0-capture-0-name'), 'token');
    await fill(user, screen.getByTestId('api-0-capture-0-expression'), '$.token');
    expect(screen.getByTestId('api-0-captures')).toHaveTextContent('Later APIs use {{token}}');
    await user.click(screen.getByTestId('api-0-tab-headers'));
    await fill(user, screen.getByTestId('api-0-headers-name-0'), 'X-Trace');
    await fill(user, screen.getByTestId('api-0-headers-value-0'), 'abc');

    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Saved! Test ID: fp-1'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    expect(bodyOf(init)).toMatchObject({
      test_name: 'Chain',
      source: 'url_input',
      test_type: 'functional',
      test_framework: 'taurus',
      user_email: TEST_USER.email,
      apis: [
        {
          name: 'Sign in',
          method: 'POST',
          url: 'http://127.0.0.1:9/login',
          body: '{"user":"a"}',
          headers: { 'X-Trace': 'abc' },
          timeout: 'abc',
          captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
        },
      ],
    });
    expect(router.state.location.search).toBe('?planId=fp-1');
    expect(screen.getByTestId('functional-save')).toHaveTextContent('Update');
    expect(screen.getByTestId('functional-save-state')).toHaveTextContent('All changes saved');
    await fill(user, screen.getByTestId('test-description'), 'more');
    expect(screen.getByTestId('functional-save-state')).toHaveTextContent('Unsaved changes');

    dismissNotices();
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Updated! Test ID: fp-1'));
    expect(callsTo(fetchMock, 'PUT', '/api/functional/update-config/fp-1')).toHaveLength(1);

    await user.click(screen.getByTestId('functional-delete'));
    expect(await answerConfirm(user, true)).toBe('Are you sure you want to delete?');
    await waitFor(() => expect(noticeTexts()).toContain('Deleted!'));
    expect(callsTo(fetchMock, 'DELETE', '/api/functional/delete-config/fp-1')).toHaveLength(1);
  });

  it('loads a saved plan by ?planId', async () => {
    await openScreen('/functional-test/url-input?planId=fp-9');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved chain'));
    expect(screen.getByTestId('setting-iterations')).toHaveValue('4');
    expect(screen.getByTestId('api-0-name')).toHaveValue('Sign in');
    expect(screen.getByTestId('api-0-body')).toHaveValue('{"user":"a"}');
    expect(screen.getByTestId('api-0-capture-0-expression')).toHaveValue('$.token');
    expect(screen.getByTestId('api-1-timeout')).toHaveValue('12');
    // A Bearer header moves to the Authorization tab, as on the performance editor.
    expect(screen.getByTestId('api-1-tab-authorization')).toBeInTheDocument();
    expect(screen.getByTestId('api-1-rule-0-enabled')).not.toBeChecked();
    expect(screen.getByTestId('functional-save')).toHaveTextContent('Update');
    expect(screen.getByTestId('functional-delete')).toBeInTheDocument();
  });

  it('downloads a saved plan for aqa test as the model reads it, and says how to run it', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => blobs.push(blob) && 'blob:plan',
        revokeObjectURL: () => undefined,
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup({ delay: null });
    const blank = await openScreen();
    // A plan not saved yet has no file to give.
    expect(screen.queryByTestId('functional-cli-download')).not.toBeInTheDocument();
    blank.unmount();
    await openScreen('/functional-test/url-input?planId=fp-9');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved chain'));

    await user.click(screen.getByTestId('functional-cli-download'));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('Saved chain.json');
    expect(blobs[0]?.type).toBe('application/json;charset=utf-8');
    const parsed = FunctionalPlanSchema.safeParse(JSON.parse((await blobs[0]?.text()) ?? ''));
    expect(parsed.success).toBe(true);
    const plan = parsed.data;
    expect(plan?.id).toBe('fp-9');
    expect(plan?.iterations).toBe(4);
    expect(plan?.apis.map((api) => api.name)).toEqual(['Sign in', 'Profile']);
    expect(plan?.apis[0]?.captures).toEqual([{ name: 'token', from: 'json_path', expression: '$.token' }]);
    expect(plan?.apis[1]?.authorization).toMatchObject({ type: 'bearer', token: '{{token}}' });
    expect(plan?.apis[1]?.validations[0]).toMatchObject({ type: 'json_path', enabled: false });

    const help = await screen.findByTestId('functional-cli-help');
    expect(within(help).getByTestId('functional-cli-command')).toHaveTextContent(
      "npx aqa test 'Saved chain.json' --junit junit.xml",
    );
    expect(within(help).getByTestId('functional-cli-exit-codes')).toHaveTextContent(
      /0every call passed1a validation failed2the test could not run/,
    );
    await user.click(within(help).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('functional-cli-help')).not.toBeInTheDocument());

    // Unsaved changes: the file would not be the plan on screen, so Update comes first.
    await fill(user, screen.getByTestId('test-name'), ' v2');
    expect(screen.getByTestId('functional-cli-download')).toBeDisabled();
    expect(screen.getByTestId('functional-cli-download')).toHaveAttribute(
      'title',
      'Update the plan first: the file holds the saved plan',
    );
  });

  it('loads the plan another screen handed over in loadSavedPlanId, and reads the key once', async () => {
    window.localStorage.setItem('loadSavedPlanId', 'fp-9');
    const { router } = await openScreen();
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved chain'));
    expect(window.localStorage.getItem('loadSavedPlanId')).toBeNull();
    expect(router.state.location.search).toBe('?planId=fp-9');
  });

  it('says why a saved plan cannot be loaded', async () => {
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/functional/get-test-config/gone': () => json({ detail: 'Test config not found' }, 404),
      }),
    );
    await openScreen('/functional-test/url-input?planId=gone');
    await waitFor(() =>
      expect(noticeTexts()).toContain('Failed to load test configuration: Test config not found'),
    );
  });

  it('saves an unsaved plan before starting it, stores the run and opens its result', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen();
    await fill(user, screen.getByTestId('test-name'), 'Run me');
    await user.click(screen.getByTestId('add-api'));
    await fill(user, screen.getByTestId('api-0-name'), 'Health');
    await fill(user, screen.getByTestId('api-0-url'), 'http://127.0.0.1:9/health');
    await user.click(screen.getByTestId('functional-start'));
    expect(await screen.findByTestId('result-stand-in')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/functional-test-result/fc_42');
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(1);
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/run-test') as [[unknown, RequestInit]];
    expect(bodyOf(init)).toMatchObject({
      plan_id: 'fp-1',
      source: 'url_input',
      test_framework: 'taurus',
      test_type: 'functional',
      test_name: 'Run me',
    });
    expect(window.localStorage.getItem('currentTestId')).toBe('fc_42');
    expect(JSON.parse(window.localStorage.getItem('currentTestConfig') ?? '{}')).toMatchObject({
      testId: 'fc_42',
      plan_id: 'fp-1',
    });
  });

  it('says why the server would not start the test', async () => {
    const user = userEvent.setup({ delay: null });
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/functional/get-test-config/fp-9': () => json(SAVED),
        'POST /api/functional/run-test': () =>
          json({ detail: 'The target 169.254.169.254 is not allowed (AQA_TARGETS_DENY)' }, 403),
      }),
    );
    await openScreen('/functional-test/url-input?planId=fp-9');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved chain'));
    await user.click(screen.getByTestId('functional-start'));
    await waitFor(() =>
      expect(noticeTexts()).toContain(
        'Failed to start functional test: The target 169.254.169.254 is not allowed (AQA_TARGETS_DENY)',
      ),
    );
    // A saved, unchanged plan is run as saved: nothing is saved again.
    expect(callsTo(fetchMock, 'PUT', '/api/functional/update-config/fp-9')).toHaveLength(0);
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(0);
  });

  it('does not start when the plan cannot be saved first', async () => {
    const user = userEvent.setup({ delay: null });
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/me': () => json({ user: TEST_USER }),
        'POST /api/functional/save-config': () => json({ detail: 'Database is locked' }, 503),
      }),
    );
    await openScreen();
    await fill(user, screen.getByTestId('test-name'), 'Run me');
    await user.click(screen.getByTestId('add-api'));
    await fill(user, screen.getByTestId('api-0-name'), 'Health');
    await fill(user, screen.getByTestId('api-0-url'), 'http://127.0.0.1:9/health');
    await user.click(screen.getByTestId('functional-start'));
    await waitFor(() =>
      expect(noticeTexts()).toContain('Failed to save test plan before running test: Database is locked'),
    );
    expect(callsTo(fetchMock, 'POST', '/api/functional/run-test')).toHaveLength(0);
    expect(screen.getByTestId('functional-start')).toHaveTextContent('Start API Functional Test');
  });
});
