import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { dismissNotices, noticeTexts } from '@/test/notices';
import { editorText } from '@/test/code-editor';
import { bodyOf, json, TEST_USER, type FetchMock } from '@/test/render';
import {
  answerFetchWith,
  callsTo,
  type FetchHandlers,
  openEditorScreen,
  setUpEditorScreenTests,
} from '../../test/editor-screen';

const SCRIPT = `execution:
  - executor: selenium
    iterations: 2
    scenario: shop
scenarios:
  shop:
    requests:
      - label: Cart
        url: http://127.0.0.1:9/cart
        actions:
          - typeByID(coupon): SAVE10
          - clickByCSS(#apply)
`;

const SAVED = {
  id: 'fs-ui',
  test_name: 'Saved browser script',
  test_type: 'ui',
  source: 'script_input',
  source_page: 'functional-script-input',
  test_framework: 'selenium',
  iterations: 2,
  script_content: SCRIPT,
  validations: [],
};

describe('the functional script input screen, Selenium variant', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;
  let handlers: FetchHandlers;
  setUpEditorScreenTests();

  beforeEach(() => {
    handlers = {
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/functional/save-config': () => json({ id: 'fs-1', test_id: 'fs-1' }, 201),
      'GET /api/functional/get-test-config/fs-ui': () => json(SAVED),
      'PUT /api/functional/update-config/fs-ui': () => json({ id: 'fs-ui' }),
      'POST /api/functional/run-test': () => json({ test_id: 'fc_9' }),
    };
    fetchMock = answerFetchWith(handlers);
  });

  const openScreen = (path = '/functional-test/script-input') =>
    openEditorScreen(path, 'functional-script-input-page');

  it('switches title, sample, help and reader to Selenium, and saves and runs the script as a UI test', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen();
    expect(screen.getByTestId('script-source-title')).toHaveTextContent('Taurus Script Configuration');
    expect(screen.getByTestId('script-help')).toHaveTextContent('jsonpath');
    expect(screen.getByTestId('framework-taurus')).toBeChecked();

    await user.click(screen.getByLabelText('Selenium (UI)'));
    expect(screen.getByTestId('framework-selenium')).toBeChecked();
    expect(screen.getByTestId('script-source-title')).toHaveTextContent('Selenium Script Configuration');
    const help = screen.getByTestId('script-help');
    for (const word of ['click:', 'input:', 'select:', 'wait:']) expect(help).toHaveTextContent(word);
    expect(screen.queryByTestId('global-rules')).not.toBeInTheDocument();
    // One browser: no users, ramp-up or think time to ask for.
    expect(screen.queryByTestId('setting-concurrentUsers')).not.toBeInTheDocument();
    expect(screen.getByTestId('setting-iterations')).toBeInTheDocument();
    expect(screen.queryByTestId('file-type')).not.toBeInTheDocument();
    expect(screen.getByTestId('script-file')).toHaveAttribute('accept', '.yml,.yaml');

    // The browser example: its pages and steps, read by the Selenium reader as it is loaded.
    await user.click(screen.getByTestId('load-sample'));
    const script = editorText(screen.getByTestId('script-content'));
    expect(script).toContain('executor: selenium');
    expect(await screen.findByTestId('selenium-pages-title')).toHaveTextContent(
      'Browser Steps (2) - Execution Order',
    );
    expect(screen.getByTestId('script-read-summary')).toHaveTextContent(
      '2 pages with 12 steps will run in a browser · warnings: 0',
    );
    const [home, settings] = screen.getAllByTestId('selenium-page');
    expect(within(home!).getByTestId('selenium-page-url')).toHaveTextContent('http://localhost:8080/');
    expect(within(settings!).getByTestId('selenium-page-url')).toHaveTextContent(
      'Acts on the page the previous step left',
    );
    const steps = within(home!).getAllByTestId('selenium-step');
    expect(steps[3]).toHaveTextContent('Line 15typeByIDid: username → ada');
    expect(screen.queryByTestId('parsed-apis-title')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('sign-in'));
    expect(screen.getByTestId('setting-iterations')).toHaveValue('1');

    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
    const [[, saved]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    expect(bodyOf(saved)).toMatchObject({
      source: 'script_input',
      source_page: 'functional-script-input',
      test_framework: 'selenium',
      test_type: 'ui',
      script_content: script,
      validations: [],
    });

    await user.click(screen.getByTestId('functional-start'));
    expect(await screen.findByTestId('result-stand-in')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/functional-test-result/fc_9');
    const [[, ran]] = callsTo(fetchMock, 'POST', '/api/functional/run-test') as [[unknown, RequestInit]];
    expect(bodyOf(ran)).toMatchObject({
      plan_id: 'fs-1',
      source: 'script_input',
      test_framework: 'selenium',
      test_type: 'ui',
    });
  });

  it('loads a Selenium script file as it is, and fills the settings from it', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByLabelText('Selenium (UI)'));
    await user.upload(
      screen.getByTestId('script-file'),
      new File([SCRIPT], 'shop.yml', { type: 'text/yaml' }),
    );
    await waitFor(() => expect(noticeTexts()).toContain('Script loaded from shop.yml'));
    expect(editorText(screen.getByTestId('script-content'))).toBe(SCRIPT);
    await waitFor(() => expect(screen.getByTestId('setting-iterations')).toHaveValue('2'));
    expect(screen.getByTestId('test-name')).toHaveValue('shop');
    expect(callsTo(fetchMock, 'POST', '/api/functional/parse-file')).toHaveLength(0);
  });

  it('names each action it cannot run with its line, before anything runs', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByLabelText('Selenium (UI)'));
    await user.click(screen.getByTestId('script-content'));
    await user.paste(SCRIPT.replace('clickByCSS(#apply)', 'hoverByCSS(#apply)'));
    const unknown = await screen.findByTestId('script-unknown-0');
    expect(unknown).toHaveTextContent('Line 12');
    expect(unknown).toHaveTextContent('hoverByCSS');
    expect(screen.getByTestId('script-refused')).toHaveTextContent('hoverByCSS (line 12)');
    expect(screen.queryByTestId('selenium-pages')).not.toBeInTheDocument();
  });

  it('reopens a saved Selenium plan in its variant, and says a failed start as a UI test', async () => {
    Object.assign(handlers, {
      'POST /api/functional/run-test': () => json({ detail: 'No browser is installed' }, 503),
    });
    const user = userEvent.setup({ delay: null });
    await openScreen('/functional-test/script-input?planId=fs-ui');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved browser script'));
    expect(screen.getByTestId('framework-selenium')).toBeChecked();
    expect(screen.getByTestId('script-source-title')).toHaveTextContent('Selenium Script Configuration');
    expect(await screen.findByTestId('selenium-pages-title')).toHaveTextContent(
      'Browser Steps (1) - Execution Order',
    );
    dismissNotices();
    await user.click(screen.getByTestId('functional-start'));
    await waitFor(() =>
      expect(noticeTexts()).toContain('Failed to start UI functional test: No browser is installed'),
    );
  });
});
