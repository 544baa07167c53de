import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerConfirm, dismissNotices, noticeTexts } from '@/test/notices';
import { editorHost, editorText } from '@/test/code-editor';
import { bodyOf, json, TEST_USER, type FetchMock } from '@/test/render';
import {
  answerFetchWith,
  callsTo,
  type FetchHandlers,
  openEditorScreen,
  setUpEditorScreenTests,
} from '../../test/editor-screen';

const SCRIPT = `execution:
  - concurrency: 1
    hold-for: 1m
    scenario: shop
scenarios:
  shop:
    requests:
      - url: http://127.0.0.1:9/login
        label: Login
        method: POST
        body: '${'x'.repeat(130)}'
      - url: http://127.0.0.1:9/items
        label: Items
`;

const SAVED = {
  id: 'fs-9',
  test_name: 'Saved script',
  test_type: 'functional',
  source: 'script_input',
  source_page: 'functional-script-input',
  concurrent_users: 4,
  script_content: SCRIPT,
  validations: [{ id: 'r1', type: 'status_code', expected_value: '201', api_name: 'Login', enabled: true }],
};

describe('the functional script input screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;
  let handlers: FetchHandlers;
  setUpEditorScreenTests();

  beforeEach(() => {
    handlers = {
      'GET /api/me': () => json({ user: TEST_USER }),
      'POST /api/functional/save-config': () => json({ id: 'fs-1', test_id: 'fs-1' }, 201),
      'PUT /api/functional/update-config/fs-1': () => json({ id: 'fs-1', test_id: 'fs-1' }),
      'GET /api/functional/get-test-config/fs-9': () => json(SAVED),
      'POST /api/functional/run-test': () => json({ test_id: 'fc_7' }),
      'POST /api/functional/parse-file': () => json({ script: SCRIPT, apis: [{}, {}] }),
    };
    fetchMock = answerFetchWith(handlers);
  });

  const openScreen = (path = '/functional-test/script-input') =>
    openEditorScreen(path, 'functional-script-input-page');

  it('keeps Save and Start off while the script is blank, and names a blank test name first', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByTestId('functional-save')).toBeDisabled();
    expect(screen.getByTestId('functional-start')).toBeDisabled();
    expect(screen.queryByTestId('functional-update')).not.toBeInTheDocument();
    expect(editorHost(screen.getByTestId('script-content'))).toHaveAttribute('data-rows', '20');
    expect(screen.getByText('Taurus Script Configuration')).toBeInTheDocument();
    await user.click(screen.getByTestId('load-sample'));
    // Read once typing pauses (useScriptReading): the list and the settings follow a moment later.
    expect(await screen.findByTestId('parsed-apis-title')).toHaveTextContent(
      'Parsed APIs (2) - Execution Order',
    );
    // The sample names the test after its scenario (the duration is 1 before and after the reading, so
    // the name is what says the execution was applied); a blank name is refused.
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('api-check'));
    expect(screen.getByTestId('setting-duration')).toHaveValue('1');
    await user.clear(screen.getByTestId('test-name'));
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Test name is required'));
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(0);
  });

  it('says where broken YAML breaks, once', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('script-content'));
    await user.paste('scenarios:\n  a: [1, 2');
    await waitFor(() =>
      expect(screen.getByTestId('script-refused')).toHaveTextContent(/YAML syntax error at line \d/),
    );
    expect(screen.getByTestId('script-refused')).not.toHaveTextContent(/Line \d+: YAML/);
  });

  it('lists the parsed APIs with cut previews, moves and deletes them in the script, and adds rules', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.click(screen.getByTestId('script-content'));
    await user.paste(SCRIPT);
    const first = await screen.findByTestId('parsed-api-0');
    expect(within(first).getByTestId('parsed-api-0-body').textContent).toBe(`${'x'.repeat(100)}...`);
    expect(screen.getByTestId('parsed-api-0-up')).toBeDisabled();
    expect(screen.getByTestId('parsed-api-1-down')).toBeDisabled();
    expect(screen.getByTestId('auth-notice')).toHaveTextContent('Authorization Notice');

    await user.click(screen.getByTestId('parsed-api-0-down'));
    await waitFor(() => expect(screen.getByTestId('parsed-api-0-name')).toHaveTextContent('Items'));
    expect(editorText(screen.getByTestId('script-content')).indexOf('Items')).toBeLessThan(
      editorText(screen.getByTestId('script-content')).indexOf('Login'),
    );

    expect(screen.getByTestId('parsed-api-1-rule-add')).toBeDisabled();
    await user.click(screen.getByTestId('parsed-api-1-rule-expected'));
    await user.paste('201');
    await user.click(screen.getByTestId('parsed-api-1-rule-add'));
    await user.click(screen.getByTestId('add-validations-all'));
    await waitFor(() => expect(noticeTexts()).toContain('Added validations for 1 APIs'));

    await user.click(screen.getByTestId('add-auth-header'));
    await user.click(await screen.findByTestId('auth-value'));
    await user.paste('t'.repeat(60));
    await user.click(screen.getByTestId('auth-apply'));
    await waitFor(() => expect(screen.queryByTestId('auth-notice')).not.toBeInTheDocument());
    expect(screen.getByTestId('parsed-api-0-headers').textContent).toBe(
      `Authorization: ${`Bearer ${'t'.repeat(60)}`.slice(0, 50)}...`,
    );

    await user.click(screen.getByTestId('parsed-api-1-delete'));
    expect(await answerConfirm(user, true)).toBe(
      'Are you sure you want to delete the API "Login"? This will also remove all its validations.',
    );
    await waitFor(() =>
      expect(screen.getByTestId('parsed-apis-title')).toHaveTextContent('Parsed APIs (1) - Execution Order'),
    );

    await user.click(screen.getByTestId('test-name'));
    await user.paste('Shop');
    dismissNotices();
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    const body = bodyOf(init) as {
      validations: { api_name?: string; id: unknown }[];
      script_content: string;
    };
    expect(body).toMatchObject({ source: 'script_input', source_page: 'functional-script-input' });
    // Login's rule went with it; Items keeps the one Add Validations for All APIs gave it.
    expect(body.validations.map((rule) => rule.api_name)).toEqual(['Items']);
    expect(typeof body.validations[0]?.id).toBe('string');
    expect(body.script_content).not.toContain('Login');
    expect(screen.getByTestId('functional-update')).toHaveTextContent('Update Test Plan');
  });

  it('loads a saved script plan by ?planId, updates it, and starts it with the spec’s alerts', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen('/functional-test/script-input?planId=fs-9');
    await waitFor(() => expect(screen.getByTestId('test-name')).toHaveValue('Saved script'));
    expect(screen.getByTestId('setting-concurrentUsers')).toHaveValue('4');
    expect(await screen.findByTestId('parsed-api-0-rule-list')).toHaveTextContent('201');
    Object.assign(handlers, {
      'PUT /api/functional/update-config/fs-9': () => json({ id: 'fs-9' }),
    });
    await user.click(screen.getByTestId('functional-update'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan updated successfully!'));
    await user.click(screen.getByTestId('functional-start'));
    expect(await screen.findByTestId('result-stand-in')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/functional-test-result/fc_7');
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/run-test') as [[unknown, RequestInit]];
    expect(bodyOf(init)).toMatchObject({ plan_id: 'fs-9', source: 'script_input', script_content: SCRIPT });
    expect(callsTo(fetchMock, 'POST', '/api/functional/save-config')).toHaveLength(0);
  });

  it('turns an uploaded file into the script with the spec’s message, and says when it cannot', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await user.selectOptions(screen.getByTestId('file-type'), 'excel');
    expect(screen.getByTestId('script-file')).toHaveAttribute('accept', '.xlsx,.xls');
    await user.selectOptions(screen.getByTestId('file-type'), 'postman');
    await user.upload(screen.getByTestId('script-file'), new File(['{}'], 'shop.json'));
    await waitFor(() =>
      expect(noticeTexts()).toContain('File parsed successfully! 2 APIs loaded and script generated.'),
    );
    expect(editorText(screen.getByTestId('script-content'))).toBe(SCRIPT);
    // A collection's tests are not in a script: the screen says where they run (docs/adr/0029-postman-collections.md).
    expect(screen.getByTestId('postman-hint')).toHaveTextContent(
      'its tests, environment and data file are not kept',
    );
    expect(within(screen.getByTestId('postman-hint')).getByRole('link')).toHaveAttribute(
      'href',
      '/functional-test/url-input',
    );
    Object.assign(handlers, {
      'POST /api/functional/parse-file': () =>
        json({ script: SCRIPT, apis: [{}, {}], postman: { tests: 6, rules: 1, scripts: 5, left_out: [] } }),
    });
    dismissNotices();
    await user.upload(screen.getByTestId('script-file'), new File(['{}'], 'tested.json'));
    await waitFor(() =>
      expect(noticeTexts()).toContain(
        "File parsed successfully! 2 APIs loaded and script generated. The collection's 6 tests are not in the script: import it on the API Test screen to run them.",
      ),
    );
    await user.selectOptions(screen.getByTestId('file-type'), 'swagger');
    expect(screen.queryByTestId('postman-hint')).toBeNull();
    await user.selectOptions(screen.getByTestId('file-type'), 'postman');
    Object.assign(handlers, { 'POST /api/functional/parse-file': () => json({ script: '', apis: [] }) });
    dismissNotices();
    await user.upload(screen.getByTestId('script-file'), new File(['{}'], 'empty.json'));
    await waitFor(() => expect(noticeTexts()).toContain('No script generated from file'));
    Object.assign(handlers, {
      'POST /api/functional/parse-file': () => json({ detail: 'Not a Postman collection' }, 400),
    });
    dismissNotices();
    await user.upload(screen.getByTestId('script-file'), new File(['{}'], 'bad.json'));
    await waitFor(() => expect(noticeTexts()).toContain('Failed to parse file: Not a Postman collection'));
  });
  it('attaches the CSV file a data source names, and saves it with the plan as data_files', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    const script = `execution:
  - concurrency: 1
    iterations: 2
    scenario: users
scenarios:
  users:
    data-sources:
      - users.csv
    requests:
      - url: http://127.0.0.1:9/users/\${id}
        label: User
`;
    await user.click(screen.getByTestId('script-content'));
    await user.paste(script);
    expect(await screen.findByTestId('data-file-0-state')).toHaveTextContent('Not attached');
    const warned = screen.getByTestId('script-warnings').textContent;
    expect(warned).toContain('users.csv');
    await user.upload(
      screen.getByTestId('data-file-0-input'),
      new File(['id\n1\n2\n'], 'users.csv', { type: 'text/csv' }),
    );
    await waitFor(() => expect(screen.getByTestId('data-file-0-state')).toHaveTextContent('3 lines'));
    await waitFor(() =>
      expect(screen.queryByTestId('script-warnings')?.textContent ?? '').not.toContain('users.csv'),
    );
    await user.click(screen.getByTestId('test-name'));
    await user.paste('Users');
    await user.click(screen.getByTestId('functional-save'));
    await waitFor(() => expect(noticeTexts()).toContain('Test plan saved successfully!'));
    const [[, init]] = callsTo(fetchMock, 'POST', '/api/functional/save-config') as [[unknown, RequestInit]];
    expect(bodyOf(init)).toMatchObject({ data_files: { 'users.csv': 'id\n1\n2\n' } });
  });
});
