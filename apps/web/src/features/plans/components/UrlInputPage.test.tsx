import { migratePlan } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DATA_SOURCES } from '@/app/data-sources';
import { SCREEN_LOADERS } from '@/app/screen-loaders';
import { BUILT_SCREENS } from '@/lib/screens';
import { answerConfirm, confirmQuestion, noticeTexts } from '@/test/notices';
import { editorHost, editorText } from '@/test/code-editor';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';

type User = ReturnType<typeof userEvent.setup>;

/** Types a whole value at once (a paste), which keeps these tests quick on a form this size. */
async function fill(user: User, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

/** A plan as GET /api/get-test-plan answers it. */
function savedPlan(overrides: Record<string, unknown> = {}) {
  return {
    ...migratePlan({
      name: 'Saved checkout',
      tool: 'k6',
      concurrent_users: 25,
      duration: 3,
      urls: [
        {
          method: 'POST',
          url: 'https://api.test/orders',
          payload: '{"a":1}',
          authorization: { type: 'bearer', token: TOKEN },
          extractType: 'json',
          extractName: 'orderId',
          extractValue: '$.id',
        },
        { method: 'GET', url: 'https://api.test/orders/{{orderId}}' },
      ],
    }),
    id: 'plan-9',
    _id: 'plan-9',
    script: '',
    script_edited: false,
    ...overrides,
  };
}

describe('the URL-input screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;

  beforeEach(() => {
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/save-test-plan': () =>
        json(
          { id: 'plan-1', _id: 'plan-1', plan_id: 'plan-1', message: 'Test plan saved successfully' },
          201,
        ),
      'PUT /api/update-test-plan/plan-1': () =>
        json({ id: 'plan-1', message: 'Test plan updated successfully' }),
      'GET /api/get-test-plan/plan-9': () => json(savedPlan()),
      'POST /api/generate-script': () =>
        json({ script: 'generated', filename: 'x', warnings: [], tool: 'jmeter' }),
    });
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function openScreen(path = '/create-test/url-input') {
    const view = renderApp(path);
    // The screen is its own lazily loaded chunk; the first import is slow in a cold test run.
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    return view;
  }

  const urlOf = (index: number) => screen.getByTestId(`api-${index}-url`);
  const alerts = noticeTexts;
  const requestedUrls = () =>
    fetchMock.mock.calls.map(([input]) =>
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    );

  it('has the breadcrumbs, the hint and the settings of docs/reference/01-authoring.md §2', async () => {
    await openScreen();
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent('PLANS>Create Test>Input URLs');
    expect(screen.getByTestId('sequence-hint')).toHaveTextContent(
      '{{sequence_number,100}} works for dynamic parameter values',
    );
    expect(screen.getByText('Required for saving and generating scripts.')).toBeInTheDocument();
    expect(screen.getByTestId('plan-users')).toHaveAttribute('placeholder', '10');
    expect(screen.getByTestId('plan-duration')).toHaveAttribute('placeholder', '5');
    expect(
      within(screen.getByTestId('plan-tool'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['JMeter', 'K6', 'Locust', 'Taurus', 'SoapUI']);
    expect(screen.getByTestId('plan-tool')).toHaveValue('jmeter');
    expect(screen.getByTestId('save-bar-name')).toHaveAttribute('placeholder', 'Enter plan name');
    const script = screen.getByTestId('script-text');
    expect(editorHost(script)).toHaveAttribute('data-rows', '16');
    expect(script).toHaveAttribute('aria-readonly', 'true');
    expect(editorHost(script)).toHaveTextContent('Generated script will appear here...');
    for (const id of ['script-validate', 'script-copy', 'script-download']) {
      expect(screen.getByTestId(id)).toBeDisabled();
    }
  });

  it('adds, moves and deletes entries by the list rules', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByTestId('api-0-up')).toBeDisabled();
    expect(screen.getByTestId('api-0-down')).toBeDisabled();
    expect(screen.getByTestId('api-0-remove')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('api-0-remove')).toHaveAccessibleDescription(
      'Cannot remove the last API. At least one API is required.',
    );
    await user.click(screen.getByTestId('api-0-remove'));
    expect(alerts()).toEqual(['Cannot remove the last API. At least one API is required.']);
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot remove the last API.');
    expect(confirmQuestion()).toBeNull();
    expect(screen.getByTestId('api-0')).toBeInTheDocument();

    await fill(user, urlOf(0), 'https://a.test');
    await user.click(screen.getByRole('button', { name: '+ Add URL' }));
    await fill(user, urlOf(1), 'https://b.test');
    await user.click(screen.getByTestId('add-url'));
    await fill(user, urlOf(2), 'https://c.test');
    expect(screen.getByTestId('api-count')).toHaveTextContent('3 in plan');
    expect(screen.getByTestId('api-2-down')).toBeDisabled();
    expect(screen.getByTestId('api-1-up')).toBeEnabled();

    await user.click(screen.getByTestId('api-2-up'));
    expect([urlOf(0), urlOf(1), urlOf(2)].map((input) => (input as HTMLInputElement).value)).toEqual([
      'https://a.test',
      'https://c.test',
      'https://b.test',
    ]);
    await user.click(screen.getByTestId('api-0-down'));
    expect((urlOf(0) as HTMLInputElement).value).toBe('https://c.test');
    // The moved card's arrow keeps the keyboard focus, so it can be pressed again.
    await waitFor(() => expect(screen.getByTestId('api-1-down')).toHaveFocus());

    await user.click(screen.getByTestId('api-1-remove'));
    expect(await answerConfirm(user, true)).toBe('Remove API 2 (GET https://a.test)?');
    expect(screen.queryByTestId('api-2')).not.toBeInTheDocument();
    expect((urlOf(1) as HTMLInputElement).value).toBe('https://b.test');
  });

  it('keeps one parameter and one header row', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    const removeParameter = screen.getByTestId('api-0-parameters-remove-0');
    expect(removeParameter).toHaveAttribute('aria-disabled', 'true');
    await user.click(removeParameter);
    expect(screen.getByTestId('api-0-parameters-name-0')).toBeInTheDocument();
    await user.click(screen.getByTestId('api-0-parameters-add'));
    expect(screen.getByTestId('api-0-parameters-remove-0')).not.toHaveAttribute('aria-disabled');
    await user.click(screen.getByTestId('api-0-parameters-remove-0'));
    expect(screen.queryByTestId('api-0-parameters-name-1')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('api-0-tab-headers'));
    expect(screen.getByTestId('api-0-headers-remove-0')).toHaveAttribute('aria-disabled', 'true');
  });

  it('moves an Authorization header typed on the Headers tab into the Authorization tab, and says so there', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await fill(user, screen.getByTestId('plan-name'), 'Auth');
    await fill(user, urlOf(0), 'https://api.test/me');
    await user.click(screen.getByTestId('api-0-tab-headers'));
    await fill(user, screen.getByTestId('api-0-headers-name-0'), 'authorization');
    await fill(user, screen.getByTestId('api-0-headers-value-0'), 'Bearer t0k-123');
    // Still typing in the row: nothing moves yet.
    expect(screen.getByTestId('api-0-headers-value-0')).toHaveValue('Bearer t0k-123');
    await user.tab();
    await user.tab();
    expect(screen.getByTestId('api-0-headers-auth-moved')).toHaveTextContent(
      'Your Authorization header was moved to the Authorization tab as a Bearer token: it is sent from there.',
    );
    expect(screen.getByTestId('api-0-headers-name-0')).toHaveValue('');
    expect(screen.getByTestId('api-0-headers-value-0')).toHaveValue('');

    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(alerts()).toContain('Test plan saved successfully!'));
    const created = fetchMock.mock.calls.find(([url]) => url === '/api/save-test-plan');
    expect(bodyOf(created?.[1])).toMatchObject({
      urls: [{ headers: [], authorization: { type: 'bearer', token: 't0k-123' } }],
    });
    await user.click(screen.getByTestId('api-0-tab-authorization'));
    expect(screen.getByTestId('api-0-auth-type')).toHaveValue('bearer');

    // With the tab set, a second Authorization row stays where it is, marked as not sent.
    await user.click(screen.getByTestId('api-0-tab-headers'));
    await fill(user, screen.getByTestId('api-0-headers-name-0'), 'Authorization');
    await fill(user, screen.getByTestId('api-0-headers-value-0'), 'Bearer other');
    await user.tab();
    await user.tab();
    expect(screen.getByTestId('api-0-headers-value-0')).toHaveValue('Bearer other');
    expect(
      screen.getByText(
        "The Authorization tab already sets this call's authorization, so this row is not sent.",
      ),
    ).toBeVisible();
  });

  it('opens the Payload tab when POST, PUT or PATCH is chosen', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByTestId('api-0-tab-parameters')).toHaveAttribute('data-state', 'active');
    expect(
      screen.queryByTestId('api-0-payload') ?? screen.getByTestId('api-0-tab-payload'),
    ).toBeInTheDocument();
    for (const method of ['POST', 'PUT', 'PATCH']) {
      await user.click(screen.getByTestId('api-0-tab-headers'));
      await user.selectOptions(screen.getByTestId('api-0-method'), method);
      expect(screen.getByTestId('api-0-tab-payload')).toHaveAttribute('data-state', 'active');
      expect(screen.getByTestId('api-0-payload')).toBeVisible();
    }
    await user.click(screen.getByTestId('api-0-tab-headers'));
    await user.selectOptions(screen.getByTestId('api-0-method'), 'DELETE');
    expect(screen.getByTestId('api-0-tab-headers')).toHaveAttribute('data-state', 'active');
  });

  it('adds validation items only with an expected value, by button or Enter', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    const add = screen.getByTestId('api-0-validation-add');
    const expected = screen.getByTestId('api-0-validation-expected');
    expect(add).toBeDisabled();
    expect(expected).toHaveAttribute('placeholder', 'Status code, e.g. 200');
    await user.type(expected, '   ');
    expect(add).toBeDisabled();
    await user.clear(expected);
    await user.type(expected, '200{Enter}');
    await user.selectOptions(screen.getByTestId('api-0-validation-type'), 'json_path');
    expect(expected).toHaveAttribute('placeholder', 'JSON path, e.g. $.user.name');
    await fill(user, expected, '$.id');
    await user.click(add);
    const list = screen.getByTestId('api-0-validation-list');
    expect(list).toHaveTextContent('Validation 1');
    expect(list).toHaveTextContent('200');
    expect(list).toHaveTextContent('Validation 2');
    expect(list).toHaveTextContent('$.id');
  });

  it('saves a new plan, remembers its id, and updates it on the next save', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen();
    const save = screen.getByTestId('save-plan');
    expect(save).toBeDisabled();
    await user.type(screen.getByTestId('save-bar-name'), '  ');
    expect(save).toBeDisabled();
    await user.clear(screen.getByTestId('save-bar-name'));
    await fill(user, screen.getByTestId('plan-name'), 'Checkout');
    expect(screen.getByTestId('save-bar-name')).toHaveValue('Checkout');
    await user.click(save);
    expect(alerts()).toEqual(['Please enter at least one valid URL']);

    await fill(user, urlOf(0), 'https://api.test/items');
    await user.click(save);
    await waitFor(() => expect(alerts()).toContain('Test plan saved successfully!'));
    const created = fetchMock.mock.calls.find(([url]) => url === '/api/save-test-plan');
    expect(bodyOf(created?.[1])).toMatchObject({
      name: 'Checkout',
      tool: 'jmeter',
      concurrent_users: 10,
      duration: 1,
      source_page: 'url-input',
      user_email: TEST_USER.email,
      urls: [{ method: 'GET', url: 'https://api.test/items' }],
    });
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-1'));
    expect(screen.getByTestId('plan-state')).toHaveTextContent('Saved plan');
    expect(screen.getByTestId('save-status')).toHaveTextContent('All changes saved');
    // Still the same editor: the address change did not reload the screen.
    expect(screen.getByTestId('api-0-url')).toHaveValue('https://api.test/items');

    await user.clear(screen.getByTestId('plan-users'));
    await fill(user, screen.getByTestId('plan-users'), '20');
    expect(screen.getByTestId('save-status')).toHaveTextContent('Unsaved changes');
    await user.click(save);
    await waitFor(() => expect(alerts()).toContain('Test plan updated successfully!'));
    const updated = fetchMock.mock.calls.find(([url]) => url === '/api/update-test-plan/plan-1');
    expect(bodyOf(updated?.[1])).toMatchObject({ concurrent_users: 20, user_email: TEST_USER.email });
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/save-test-plan')).toHaveLength(1);
  });

  it('shows the spec messages for missing input', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('generate-plan'));
    expect(alerts()).toEqual(['Please enter a plan name']);
    expect(screen.getByTestId('plan-name-error')).toHaveTextContent('Please enter a plan name');
    await fill(user, screen.getByTestId('plan-name'), 'P');
    // Each new attempt takes back what the screen said before: the name is there now.
    await user.click(screen.getByTestId('generate-plan'));
    expect(alerts()).toEqual(['No APIs to generate script for']);
    await user.click(screen.getByTestId('validate-plan'));
    expect(alerts()).toEqual(['No APIs to validate']);
    await user.click(screen.getByTestId('download-script'));
    expect(alerts()).toEqual([
      'No APIs to validate',
      'No script generated yet. Please generate a script first.',
    ]);
    await fill(user, urlOf(0), 'ftp://nope');
    await user.click(screen.getByTestId('save-plan'));
    expect(alerts().at(-1)).toBe(
      'Failed to save test plan: API 1, URL: Enter a full URL starting with http:// or https:// (or with a {{variable}})',
    );
    expect(screen.getByTestId('api-0-url')).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers https:// for a URL typed without its scheme, in one click (issue 24)', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await fill(user, urlOf(0), 'api.shop.test/orders');
    await user.click(await screen.findByTestId('api-0-url-https'));
    expect(urlOf(0)).toHaveValue('https://api.shop.test/orders');
    expect(screen.queryByTestId('api-0-url-https')).not.toBeInTheDocument();
  });

  it('generates the script in the browser and keeps it in step with the plan', async () => {
    const user = userEvent.setup({ delay: null });
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await openScreen();
    await fill(user, screen.getByTestId('plan-name'), 'My plan');
    await fill(user, urlOf(0), 'https://api.test/items');
    await user.click(screen.getByTestId('generate-plan'));
    const script = screen.getByTestId('script-text');
    await waitFor(() => expect(editorText(script)).toContain('<jmeterTestPlan'));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/generate-script')).toBe(true);
    expect(screen.getByTestId('script-filename')).toHaveTextContent('testplan_jmeter_My_plan.jmx');

    await user.selectOptions(screen.getByTestId('plan-tool'), 'locust');
    await waitFor(() => expect(editorText(script)).toContain('Locust'));
    expect(screen.getByTestId('script-filename')).toHaveTextContent('testplan_locust_My_plan.py');

    await user.click(screen.getByTestId('script-copy'));
    expect(writeText).toHaveBeenCalledWith(editorText(script));
    await waitFor(() => expect(alerts()).toContain('Script copied to clipboard!'));
    expect(screen.getByText('Script copied to clipboard!').closest('[role]')).toHaveAttribute(
      'role',
      'status',
    );

    await user.click(screen.getByTestId('script-edit-toggle'));
    expect(script).not.toHaveAttribute('aria-readonly');
    await user.type(script, '# tuned');
    expect(screen.getByTestId('script-mode')).toHaveTextContent('Edited by hand');
    // jsdom has no layout, so the caret of the code editor starts at the top: the text is typed there.
    expect(editorText(script)).toMatch(/^# tuned/);

    // Another tool replaces the edited script, once the user agrees.
    await user.selectOptions(screen.getByTestId('plan-tool'), 'k6');
    expect(await answerConfirm(user, true)).toBe(
      'Your edited script is written for Locust. Switch tools and generate a new script from the plan?',
    );
    await waitFor(() => expect(editorText(script)).toContain("from 'k6/http'"));
    expect(screen.getByTestId('script-mode')).toHaveTextContent('Follows the plan');
  });

  it('shows a token cut to 20 characters in the plan details', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen('/create-test/url-input?planId=plan-9');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
    await user.click(screen.getByTestId('view-details'));
    const details = await screen.findByTestId('details-dialog');
    expect(within(details).getByTestId('details-api-0-auth')).toHaveTextContent('tok_abcdefghijklmnop…');
    expect(details).not.toHaveTextContent(TOKEN);
    expect(within(details).getByTestId('details-api-count')).toHaveTextContent('2');
    expect(within(details).getByTestId('details-duration')).toHaveTextContent('3 min');
  });

  it('loads a plan by ?planId and fills every field', async () => {
    await openScreen('/create-test/url-input?planId=plan-9');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
    expect(requestedUrls()).toContain(
      `/api/get-test-plan/plan-9?user_email=${encodeURIComponent(TEST_USER.email)}`,
    );
    expect(screen.getByTestId('plan-tool')).toHaveValue('k6');
    expect(screen.getByTestId('plan-users')).toHaveValue(25);
    expect(screen.getByTestId('api-0-method')).toHaveValue('POST');
    expect(screen.getByTestId('api-0-payload')).toHaveValue('{"a":1}');
    expect(screen.getByTestId('api-0-extractName')).toHaveValue('orderId');
    expect(screen.getByTestId('api-1-url')).toHaveValue('https://api.test/orders/{{orderId}}');
    expect(screen.getByTestId('plan-state')).toHaveTextContent('Saved plan');
  });

  it('takes a saved plan id from storage, removes it, and puts the id in the address', async () => {
    localStorage.setItem('loadSavedPlanId', 'plan-9');
    const { router } = await openScreen();
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
    expect(localStorage.getItem('loadSavedPlanId')).toBeNull();
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-9'));
  });

  it('takes a whole saved plan from storage without a request, and removes it', async () => {
    localStorage.setItem('savedPlan', JSON.stringify({ ...savedPlan(), id: 'plan-5', name: 'From storage' }));
    const { router } = await openScreen();
    expect(screen.getByTestId('plan-name')).toHaveValue('From storage');
    expect(localStorage.getItem('savedPlan')).toBeNull();
    expect(requestedUrls().some((url) => url.includes('get-test-plan'))).toBe(false);
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-5'));
  });

  it('says so when a saved plan cannot be loaded', async () => {
    await openScreen('/create-test/url-input?planId=missing');
    await waitFor(() => expect(alerts()).toEqual(['Failed to load saved plan data. Please try again.']));
    expect(screen.getByTestId('plan-load-error')).toBeInTheDocument();
    expect(screen.getByTestId('save-plan')).toBeDisabled();
  });

  it('sends a plan of the script-upload screen there, at step 2', async () => {
    fetchMock.mockImplementation(
      (await import('@/test/render')).mockFetch({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/get-test-plan/plan-9': () => json(savedPlan({ source_page: 'script-input' })),
      }),
    );
    const { router } = await openScreen('/create-test/url-input?planId=plan-9');
    expect(await screen.findByTestId('script-input-page', undefined, { timeout: 10_000 })).toHaveAttribute(
      'data-step',
      'configure',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-test/script-input'));
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-9'));
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
    expect(localStorage.getItem('loadSavedPlanId')).toBeNull();
  });

  it('opens a plan of the script-upload screen here, with a note, while that screen does not exist', async () => {
    BUILT_SCREENS.delete('createTestScript');
    onTestFinished(() => void BUILT_SCREENS.add('createTestScript'));
    fetchMock.mockImplementation(
      (await import('@/test/render')).mockFetch({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/get-test-plan/plan-9': () => json(savedPlan({ source_page: 'script-input' })),
      }),
    );
    const { router } = await openScreen('/create-test/url-input?planId=plan-9');
    expect(await screen.findByTestId('plan-foreign-source')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/create-test/url-input');
    expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout');
  });

  it('shows Run Script as "Coming soon" until the result screen exists, and no text-command panel', async () => {
    const textCommand = DATA_SOURCES.planTextCommand;
    BUILT_SCREENS.delete('testResult');
    delete DATA_SOURCES.planTextCommand;
    onTestFinished(() => {
      BUILT_SCREENS.add('testResult');
      if (textCommand) DATA_SOURCES.planTextCommand = textCommand;
    });
    await openScreen('/create-test/url-input?planId=plan-9');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
    expect(screen.getByTestId('run-script')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('run-script')).toHaveAccessibleDescription('Coming soon');
    expect(screen.queryByTestId('text-command-panel')).not.toBeInTheDocument();
  });

  describe('once the result screen and the text-command parser exist', () => {
    const registered = { ...SCREEN_LOADERS };
    const sources = { ...DATA_SOURCES };
    beforeEach(() => {
      SCREEN_LOADERS.testResult = () =>
        Promise.resolve({ default: () => <div data-testid="result-page">result</div> });
    });
    afterEach(() => {
      SCREEN_LOADERS.testResult = registered.testResult;
      if (sources.planTextCommand) DATA_SOURCES.planTextCommand = sources.planTextCommand;
      else delete DATA_SOURCES.planTextCommand;
    });

    it('saves an unsaved plan before running it, then opens its result', async () => {
      const user = userEvent.setup({ delay: null });
      fetchMock.mockImplementation(
        (await import('@/test/render')).mockFetch({
          'GET /api/me': () => json({ user: TEST_USER }),
          'POST /api/save-test-plan': () => json({ id: 'plan-1', message: 'saved' }, 201),
          'POST /api/run-test': () => json({ test_id: 'test-42' }),
        }),
      );
      const { router } = await openScreen();
      await fill(user, screen.getByTestId('plan-name'), 'Run me');
      await fill(user, urlOf(0), 'https://api.test/items');
      await user.click(screen.getByTestId('run-script'));
      expect(await screen.findByTestId('result-page')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/test-result/test-42');
      expect(localStorage.getItem('currentTestId')).toBe('test-42');
      expect(JSON.parse(localStorage.getItem('currentTestConfig') ?? '{}')).toMatchObject({
        plan_id: 'plan-1',
        planName: 'Run me',
        testId: 'test-42',
      });
      const urls = fetchMock.mock.calls.map(([url]) => url);
      expect(urls.indexOf('/api/save-test-plan')).toBeLessThan(urls.indexOf('/api/run-test'));
      const run = fetchMock.mock.calls.find(([url]) => url === '/api/run-test');
      expect(bodyOf(run?.[1])).toMatchObject({
        plan_id: 'plan-1',
        planName: 'Run me',
        tool: 'jmeter',
        concurrent_users: 10,
        duration: 1,
        user_email: TEST_USER.email,
      });
    });

    /** A saved JMeter plan whose extraction path JMeter 2.13 cannot read ($..id). */
    function descendantPlan() {
      const plan = savedPlan({ tool: 'jmeter' });
      plan.urls[0] = { ...plan.urls[0]!, extractValue: '$..id' };
      return plan;
    }

    it('says before Run that the installed JMeter 2.13 cannot run the plan, and runs it in the built-in engine in one click', async () => {
      const user = userEvent.setup({ delay: null });
      const engine = { installed: true, command: '/usr/bin/x', usable: true, reason: null };
      fetchMock.mockImplementation(
        (await import('@/test/render')).mockFetch({
          'GET /api/me': () => json({ user: TEST_USER }),
          'GET /api/engines': () =>
            json([
              { ...engine, tool: 'builtin', name: 'Built-in engine', version: '1.0.0' },
              { ...engine, tool: 'jmeter', name: 'Apache JMeter', version: '2.13' },
            ]),
          'GET /api/get-test-plan/plan-9': () => json(descendantPlan()),
          'POST /api/run-test': () => json({ test_id: 'test-43' }),
        }),
      );
      const { router } = await openScreen('/create-test/url-input?planId=plan-9');
      const alert = await screen.findByTestId('tool-cannot-run');
      expect(alert).toHaveTextContent('Apache JMeter 2.13 on this server cannot run this plan');
      expect(alert).toHaveTextContent('urls[0].extractValue');
      expect(alert).toHaveTextContent('$..id');
      expect(within(alert).getByTestId('run-elsewhere-locust')).toHaveTextContent('Run with Locust');
      await user.click(within(alert).getByTestId('run-elsewhere-builtin'));
      expect(await screen.findByTestId('result-page')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/test-result/test-43');
      const run = fetchMock.mock.calls.find(([url]) => url === '/api/run-test');
      expect(bodyOf(run?.[1])).toMatchObject({ plan_id: 'plan-9', tool: 'jmeter', engine: 'builtin' });
    });

    it("shows the server's refusal of Run for the tool's version, and runs the plan in Locust in one click", async () => {
      const user = userEvent.setup({ delay: null });
      let runs = 0;
      fetchMock.mockImplementation(
        (await import('@/test/render')).mockFetch({
          'GET /api/me': () => json({ user: TEST_USER }),
          'GET /api/get-test-plan/plan-9': () => json(descendantPlan()),
          'POST /api/run-test': () =>
            ++runs === 1
              ? json(
                  {
                    code: 'TOOL_CANNOT_RUN_PLAN',
                    detail: 'Apache JMeter 2.13 on this server cannot run this plan: no $..id before 3.0',
                    errors: [
                      {
                        field: 'urls[0].extractValue',
                        message:
                          'Apache JMeter 2.13 on this server cannot run this plan: no $..id before 3.0',
                      },
                    ],
                  },
                  400,
                  'Bad Request',
                )
              : json({ test_id: 'test-44' }, 201),
        }),
      );
      const { router } = await openScreen('/create-test/url-input?planId=plan-9');
      await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved checkout'));
      expect(screen.queryByTestId('tool-cannot-run')).toBeNull();
      await user.click(screen.getByTestId('run-script'));
      const alert = await screen.findByTestId('tool-cannot-run');
      expect(alert).toHaveTextContent('urls[0].extractValue: no $..id before 3.0');
      await user.click(within(alert).getByTestId('run-elsewhere-locust'));
      expect(await screen.findByTestId('result-page')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/test-result/test-44');
      const second = fetchMock.mock.calls.filter(([url]) => url === '/api/run-test')[1];
      expect(bodyOf(second?.[1])).toMatchObject({ plan_id: 'plan-9', tool: 'locust' });
      expect(bodyOf(second?.[1])).not.toHaveProperty('engine');
    });

    it('shows the text-command panel for a saved plan and applies the updated plan', async () => {
      const user = userEvent.setup({ delay: null });
      const source = vi.fn(() =>
        Promise.resolve({
          message: 'Updated 1 field',
          parsed_updates: [{ field: 'concurrent_users', value: 50, scope: 'plan' as const }],
          updated_plan: savedPlan({ concurrent_users: 50 }),
        }),
      );
      DATA_SOURCES.planTextCommand = source;
      await openScreen('/create-test/url-input?planId=plan-9');
      const panel = await screen.findByTestId('text-command-panel');
      await fill(user, within(panel).getByTestId('text-command-input'), 'change concurrent users to 50');
      await user.click(within(panel).getByTestId('text-command-apply'));
      // The screen words the applied changes itself, in its language.
      expect(await within(panel).findByTestId('text-command-message')).toHaveTextContent(
        'Applied 1 change: concurrent users → 50',
      );
      expect(within(panel).getByTestId('text-command-message')).toHaveAttribute('data-kind', 'success');
      expect(within(panel).getByTestId('text-command-changes')).toHaveTextContent('concurrent users → 50');
      expect(source).toHaveBeenCalledWith({ plan_id: 'plan-9', command: 'change concurrent users to 50' });
      expect(screen.getByTestId('plan-users')).toHaveValue(50);
    });
  });
});
