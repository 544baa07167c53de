import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

/** A UI plan as GET /api/functional/get-test-config answers it. */
const SAVED = {
  id: 'ui-9',
  test_name: 'Shop pages',
  description: 'Home, cart, checkout',
  iterations: 3,
  test_duration: 2,
  test_type: 'ui',
  source: 'ui_url_input',
  test_framework: 'selenium',
  apis: [
    {
      name: 'Home',
      url: 'http://127.0.0.1:9/',
      method: 'GET',
      validations: [{ type: 'page_title', expected_value: 'Shop', enabled: true }],
    },
    {
      name: 'Search',
      url: 'http://127.0.0.1:9/search',
      method: 'POST',
      validations: [{ type: 'element_exists', expected_value: '#results', enabled: false }],
    },
  ],
};

/** The names of the UI test cards, top to bottom. */
function cardNames(): string[] {
  return screen.getAllByTestId(/^ui-test-\d+-name$/).map((input) => (input as HTMLInputElement).value);
}

describe('the UI Functional Test screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;
  setUpEditorScreenTests();

  beforeEach(() => {
    fetchMock = answerFetchWith({
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/functional/save-config': () => json({ id: 'ui-1', test_id: 'ui-1' }, 201),
      'PUT /api/functional/update-config/ui-1': () => json({ id: 'ui-1', test_id: 'ui-1' }),
      'DELETE /api/functional/delete-config/ui-1': () => json({ message: 'deleted' }),
      'GET /api/functional/get-test-config/ui-9': () => json(SAVED),
      'POST /api/functional/run-test': () => json({ test_id: 'fc_77' }),
    });
  });

  const openScreen = (path = '/functional-test/ui-url-input') => openEditorScreen(path, 'functional-ui-page');

  it('starts empty, offers GET and POST and the three page checks, and names the problems of §5 in order', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('UI Functional Test');
    expect(screen.getByTestId('ui-no-tests')).toHaveTextContent('No UI tests configured');
    expect(screen.getByTestId('functional-save')).toBeDisabled();
    expect(screen.getByTestId('functional-start')).toBeDisabled();
    expect(screen.getByTestId('functional-start')).toHaveTextContent('Start UI Test');
    // Only the UI screen's numbers: iterations and duration, no users, ramp-up or think time.
    expect(screen.getByTestId('setting-iterations')).toHaveValue('1');
    expect(screen.getByTestId('setting-duration')).toHaveValue('1');
    expect(screen.queryByTestId('setting-concurrentUsers')).not.toBeInTheDocument();
    expect(screen.queryByTestId('setting-thinkTime')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('add-ui-test'));
    await user.click(screen.getByTestId('add-ui-test'));
    expect(screen.getByTestId('functional-save')).toBeEnabled();
    expect(screen.getByTestId('ui-test-0-method')).toHaveValue('GET');
    expect(
      within(screen.getByTestId('ui-test-0-method'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['GET', 'POST']);
    expect(
      within(screen.getByTestId('ui-test-0-rule-type'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Contains text', 'Element exists', 'Page title']);
    expect(screen.getByTestId('ui-test-0-rule-expected')).toHaveAttribute(
      'placeholder',
      'Text, e.g. Welcome back',
    );
    await user.selectOptions(screen.getByTestId('ui-test-0-rule-type'), 'element_exists');
    expect(screen.getByTestId('ui-test-0-rule-expected')).toHaveAttribute(
      'placeholder',
      'CSS or XPath selector, e.g. #checkout',
    );
    await user.selectOptions(screen.getByTestId('ui-test-0-rule-type'), 'page_title');
    expect(screen.getByTestId('ui-test-0-rule-hint')).toHaveTextContent('The exact title of the page');

    await fill(user, screen.getByTestId('ui-test-1-name'), 'Cart');
    await user.click(screen.getByTestId('functional-save'));
    expect(noticeTexts()).toEqual(['Test name is required']);
    expect(
      within(screen.getByTestId('functional-problems'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Test name is required',
      'UI Test #1 name is required',
      'UI Test #1 URL is required',
      'UI Test #2 URL is required',
    ]);
    expect(screen.getByTestId('ui-test-1-url-error')).toHaveTextContent('UI Test #2 URL is required');

    // Iterations 1–10 on this screen (1–1000 elsewhere), refused rather than clamped; blank falls back to 1.
    await user.clear(screen.getByTestId('setting-iterations'));
    await fill(user, screen.getByTestId('setting-iterations'), '11');
    expect(screen.getByTestId('iterations-error')).toHaveTextContent(
      'Iterations must be a whole number from 1 to 10',
    );
    await user.clear(screen.getByTestId('setting-iterations'));
    await fill(user, screen.getByTestId('setting-iterations'), '5000');
    expect(screen.getByTestId('iterations-error')).toHaveTextContent(
      'Iterations must be a whole number from 1 to 10',
    );
    await user.clear(screen.getByTestId('setting-iterations'));
    await user.clear(screen.getByTestId('setting-duration'));
    await fill(user, screen.getByTestId('setting-duration'), '61');
    expect(screen.getByTestId('duration-error')).toHaveTextContent(
      'Test duration must be a whole number of minutes from 1 to 60',
    );
    expect(screen.queryByTestId('iterations-error')).not.toBeInTheDocument();

    // Both cards removed: the list's own message.
    for (const index of [1, 0]) {
      await user.click(screen.getByTestId(`ui-test-${index}-remove`));
      await answerConfirm(user, true);
    }
    await user.clear(screen.getByTestId('setting-duration'));
    expect(screen.getByTestId('ui-tests-error')).toHaveTextContent('At least one UI test must be configured');
    expect(screen.getByTestId('functional-save')).toBeDisabled();
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(0);
  });

  it('reorders with the arrows (disabled at the ends) and by dragging a card onto another', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    for (const [index, name] of ['Home', 'Cart', 'Checkout'].entries()) {
      await user.click(screen.getByTestId('add-ui-test'));
      await fill(user, screen.getByTestId(`ui-test-${index}-name`), name);
    }
    expect(screen.getByTestId('ui-test-0-up')).toBeDisabled();
    expect(screen.getByTestId('ui-test-2-down')).toBeDisabled();
    expect(screen.getByTestId('ui-test-0-up')).toHaveAccessibleName('Move UI test up');
    expect(screen.getByTestId('ui-test-1-down')).toHaveAccessibleName('Move UI test down');

    await user.click(screen.getByTestId('ui-test-0-down'));
    expect(cardNames()).toEqual(['Cart', 'Home', 'Checkout']);
    // The moved card's arrow keeps the focus, so the keyboard can move it again; at the end, the other arrow.
    await waitFor(() => expect(screen.getByTestId('ui-test-1-down')).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(cardNames()).toEqual(['Cart', 'Checkout', 'Home']);
    await waitFor(() => expect(screen.getByTestId('ui-test-2-up')).toHaveFocus());

    // Drag the last card's handle onto the first: it takes the first place.
    const handle = screen.getByTestId('ui-test-2-drag');
    expect(handle).toHaveAttribute('draggable', 'true');
    expect(handle).toHaveAccessibleName('Drag UI test 3 to reorder');
    const dataTransfer = {
      data: new Map<string, string>(),
      effectAllowed: 'none',
      dropEffect: 'none',
      setData(type: string, value: string) {
        this.data.set(type, value);
      },
      setDragImage: vi.fn(),
    };
    const first = screen.getByTestId('ui-test-0').closest('li')!;
    fireEvent.dragStart(handle, { dataTransfer });
    expect(dataTransfer.setDragImage).toHaveBeenCalledWith(screen.getByTestId('ui-test-2'), 24, 24);
    expect(dataTransfer.data.get('text/plain')).toBe('3');
    fireEvent.dragOver(first, { dataTransfer });
    expect(screen.getByTestId('ui-test-0')).toHaveClass('ring-2');
    fireEvent.drop(first, { dataTransfer });
    fireEvent.dragEnd(handle, { dataTransfer });
    expect(cardNames()).toEqual(['Home', 'Cart', 'Checkout']);
    expect(screen.getByTestId('ui-test-0')).not.toHaveClass('ring-2');

    // A drop with no drag from this list (a file, another window) changes nothing.
    fireEvent.drop(screen.getByTestId('ui-test-2').closest('li')!, { dataTransfer });
    expect(cardNames()).toEqual(['Home', 'Cart', 'Checkout']);
  });

  it('saves a new UI plan as source ui_url_input, then updates and deletes it, with the spec’s alerts', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen();
    await fill(user, screen.getByTestId('test-name'), 'Shop');
    await user.clear(screen.getByTestId('setting-iterations'));
    await fill(user, screen.getByTestId('setting-iterations'), '10');
    await user.click(screen.getByTestId('add-ui-test'));
    await fill(user, screen.getByTestId('ui-test-0-name'), 'Home');
    await fill(user, screen.getByTestId('ui-test-0-url'), 'http://127.0.0.1:9/');
    await fill(user, screen.getByTestId('ui-test-0-rule-expected'), 'Welcome');
    await user.click(screen.getByTestId('ui-test-0-rule-add'));
    await user.selectOptions(screen.getByTestId('ui-test-0-rule-type'), 'element_exists');
    await fill(user, screen.getByTestId('ui-test-0-rule-expected'), '//a[@href="/cart"]');
    await user.click(screen.getByTestId('ui-test-0-rule-add'));
    expect(screen.getByTestId('ui-test-0-rule-1')).toHaveTextContent('Element exists');
    await user.click(screen.getByTestId('add-ui-test'));
    await fill(user, screen.getByTestId('ui-test-1-name'), 'Search');
    await user.selectOptions(screen.getByTestId('ui-test-1-method'), 'POST');
    await fill(user, screen.getByTestId('ui-test-1-url'), 'http://127.0.0.1:9/search');

    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Saved! Test ID: ui-1'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    const sent = bodyOf(init) as Record<string, unknown>;
    expect(sent).toMatchObject({
      test_name: 'Shop',
      source: 'ui_url_input',
      test_type: 'ui',
      test_framework: 'selenium',
      iterations: 10,
      test_duration: 1,
      user_email: TEST_USER.email,
      apis: [
        {
          name: 'Home',
          method: 'GET',
          url: 'http://127.0.0.1:9/',
          validations: [
            { type: 'contains_text', expected_value: 'Welcome', enabled: true },
            { type: 'element_exists', expected_value: '//a[@href="/cart"]', enabled: true },
          ],
        },
        { name: 'Search', method: 'POST', url: 'http://127.0.0.1:9/search', validations: [] },
      ],
    });
    expect(sent).not.toHaveProperty('source_page');
    expect(router.state.location.search).toBe('?planId=ui-1');
    expect(screen.getByTestId('functional-save')).toHaveTextContent('Update');

    dismissNotices();
    await fill(user, screen.getByTestId('test-description'), 'three pages');
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Updated! Test ID: ui-1'));
    const [[, update]] = callsTo(fetchMock, 'PUT', '/api/functional/update-config/ui-1') as [
      [unknown, RequestInit],
    ];
    expect(bodyOf(update)).toMatchObject({ description: 'three pages', source: 'ui_url_input' });

    await user.click(screen.getByTestId('functional-delete'));
    expect(await answerConfirm(user, true)).toBe('Are you sure you want to delete?');
    await waitFor(() => expect(noticeTexts()).toContain('Deleted!'));
    expect(callsTo(fetchMock, 'DELETE', '/api/functional/delete-config/ui-1')).toHaveLength(1);
  });

  it('loads a saved UI plan by ?planId, and starts it as saved: run-test with source ui_url_input, then its result', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen('/functional-test/ui-url-input?planId=ui-9');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Shop pages'));
    expect(screen.getByTestId('setting-iterations')).toHaveValue('3');
    expect(screen.getByTestId('setting-duration')).toHaveValue('2');
    expect(cardNames()).toEqual(['Home', 'Search']);
    expect(screen.getByTestId('ui-test-1-method')).toHaveValue('POST');
    expect(screen.getByTestId('ui-test-0-rule-0')).toHaveTextContent('Page title');
    expect(screen.getByTestId('ui-test-1-rule-0-enabled')).not.toBeChecked();
    expect(screen.getByTestId('functional-save-state')).toHaveTextContent('All changes saved');

    await user.click(screen.getByTestId('functional-start'));
    expect(await screen.findByTestId('result-stand-in')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/functional-test-result/fc_77');
    // Saved and unchanged: nothing is saved again.
    expect(callsTo(fetchMock, 'PUT', '/api/functional/update-config/ui-9')).toHaveLength(0);
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/run-test') as [[unknown, RequestInit]];
    expect(bodyOf(init)).toMatchObject({
      plan_id: 'ui-9',
      source: 'ui_url_input',
      test_type: 'ui',
      test_framework: 'selenium',
      iterations: 3,
    });
    expect(window.localStorage.getItem('currentTestId')).toBe('fc_77');
  });

  it('says why a UI plan cannot be loaded, or started, in the spec’s words', async () => {
    const user = userEvent.setup({ delay: null });
    // The server answers the start when the test says so, to see the busy label meanwhile.
    let answerStart = () => {};
    const started = new Promise<void>((resolve) => (answerStart = resolve));
    fetchMock.mockImplementation(
      mockFetch({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/functional/get-test-config/gone': () => json({ detail: 'Test config not found' }, 404),
        'GET /api/functional/get-test-config/ui-9': () => json(SAVED),
        'POST /api/functional/run-test': async () => {
          await started;
          return json({ detail: 'UI tests need Chromium, and none was found at /usr/bin/chromium' }, 503);
        },
      }),
    );
    const gone = await openScreen('/functional-test/ui-url-input?planId=gone');
    await waitFor(() =>
      expect(noticeTexts()).toContain('Failed to load UI test configuration: Test config not found'),
    );
    expect(screen.getByTestId('functional-plan-load-error')).toBeInTheDocument();
    gone.unmount();
    dismissNotices();

    await openScreen('/functional-test/ui-url-input?planId=ui-9');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Shop pages'));
    await user.click(screen.getByTestId('functional-start'));
    expect(screen.getByTestId('functional-start')).toHaveTextContent('Starting Test...');
    expect(screen.getByTestId('functional-start')).toBeDisabled();
    expect(screen.getByTestId('functional-save')).toBeDisabled();
    answerStart();
    await waitFor(() =>
      expect(noticeTexts()).toContain(
        'Failed to start UI functional test: UI tests need Chromium, and none was found at /usr/bin/chromium',
      ),
    );
    expect(screen.getByTestId('functional-start')).toHaveTextContent('Start UI Test');
  });
});
