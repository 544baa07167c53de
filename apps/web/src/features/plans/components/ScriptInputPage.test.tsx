import { migratePlan } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCREEN_LOADERS } from '@/app/screen-loaders';
import {
  bodyOf,
  createFetchMock,
  json,
  mockFetch,
  renderApp,
  signInAs,
  TEST_USER,
  type FetchMock,
} from '@/test/render';
import { answerConfirm, confirmQuestion, dismissNotices, noticeTexts } from '@/test/notices';
import { editorText } from '@/test/code-editor';

type User = ReturnType<typeof userEvent.setup>;
type Handlers = Parameters<typeof mockFetch>[0];

/** The plan's URL entries, as a parse call answers them in `steps`. */
function steps(...calls: { name: string; method?: string; url: string; payload?: string }[]) {
  return migratePlan({ name: 'x', urls: calls }).urls;
}

const PETS = steps(
  { name: 'List pets', url: 'http://127.0.0.1:9/v1/pets' },
  { name: 'Create a pet', method: 'POST', url: 'http://127.0.0.1:9/v1/pets', payload: '{"name":"Rex"}' },
  { name: 'Show a pet', url: 'http://127.0.0.1:9/v1/pets/1' },
);

function parseAnswer(
  calls: ReturnType<typeof steps>,
  info: Record<string, unknown> = {},
  warnings: { location: string; message: string }[] = [],
) {
  return {
    apis: [],
    steps: calls,
    warnings,
    needs_value: [],
    info: {
      format: 'swagger',
      kind: 'OpenAPI 3.0.0',
      title: 'Swagger Petstore',
      servers: [],
      requests: calls.length,
      methods: {},
      ...info,
    },
  };
}

function savedPlan(overrides: Record<string, unknown> = {}) {
  return {
    ...migratePlan({
      name: 'Saved pets',
      tool: 'k6',
      concurrent_users: 5,
      duration: 2,
      source_page: 'script-input',
      urls: [
        { name: 'List pets', url: 'http://127.0.0.1:9/v1/pets' },
        { name: 'Show a pet', url: 'http://127.0.0.1:9/v1/pets/1' },
      ],
    }),
    id: 'plan-7',
    script: '',
    script_edited: false,
    ...overrides,
  };
}

function file(name: string, text = '{"openapi":"3.0.0"}', type = 'application/json'): File {
  return new File([text], name, { type });
}

describe('the script-upload screen', { timeout: 20_000 }, () => {
  let fetchMock: FetchMock;

  const baseHandlers: Handlers = {
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/upload-limits': () =>
      json({ max_file_bytes: 25 * 1024 * 1024, max_upload_bytes: 50 * 1024 * 1024 }),
    'POST /api/parse-swagger': () => json(parseAnswer(PETS)),
    'POST /api/save-test-plan': () => json({ id: 'plan-1', message: 'Test plan saved successfully' }, 201),
    'PUT /api/update-test-plan/plan-1': () =>
      json({ id: 'plan-1', message: 'Test plan updated successfully' }),
    'GET /api/get-test-plan/plan-7': () => json(savedPlan()),
    'POST /api/generate-script': () => json({ script: 'generated', filename: 'x', warnings: [] }),
  };

  function useHandlers(extra: Handlers) {
    fetchMock.mockImplementation(mockFetch({ ...baseHandlers, ...extra }));
  }

  beforeEach(() => {
    fetchMock = createFetchMock(baseHandlers);
    vi.stubGlobal('fetch', fetchMock);
    signInAs();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function openScreen(path = '/create-test/script-input') {
    const view = renderApp(path);
    await screen.findByTestId('script-input-page', undefined, { timeout: 10_000 });
    return view;
  }

  const urlOf = (input: RequestInfo | URL) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const calls = (path: string) => fetchMock.mock.calls.filter(([url]) => urlOf(url).split('?')[0] === path);
  const formOf = (path: string) => calls(path)[0]?.[1]?.body as FormData | undefined;
  const alerts = noticeTexts;
  const titles = () => screen.queryAllByTestId(/^api-\d+-title$/).map((element) => element.textContent);

  async function upload(user: User, name = 'petstore.yaml', baseUrl = '') {
    await user.upload(screen.getByTestId('upload-file'), file(name));
    if (baseUrl) await user.type(screen.getByTestId('upload-base-url'), baseUrl);
    await user.click(screen.getByTestId('upload-proceed'));
  }

  it('starts at step 1 with the two spec kinds first, their extensions, and the optional base URL', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent('PLANS>Create Test>Upload script');
    expect(screen.getByTestId('script-input-page')).toHaveAttribute('data-step', 'upload');
    expect(screen.getByTestId('upload-kind-swagger')).toBeChecked();
    expect(screen.getByTestId('upload-file')).toHaveAttribute('accept', '.json,.yaml,.yml');
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'swagger',
      'postman',
      'har',
      'taurus',
      'csv',
      'excel',
      'curl',
    ]);
    expect(screen.getByRole('radio', { name: /Swagger\/OpenAPI/ })).toBe(
      screen.getByTestId('upload-kind-swagger'),
    );
    expect(screen.getByRole('radio', { name: 'Postman Collection' })).toHaveAccessibleDescription('.json');
    expect(screen.getByRole('radio', { name: 'Swagger/OpenAPI' })).toHaveAccessibleDescription(
      '.json, .yaml, .yml',
    );
    await user.click(screen.getByTestId('upload-kind-postman'));
    expect(screen.getByTestId('upload-file')).toHaveAttribute('accept', '.json');
    await user.click(screen.getByTestId('upload-kind-har'));
    expect(screen.getByTestId('upload-file')).toHaveAttribute('accept', '.har,.json');
    await user.click(screen.getByTestId('upload-kind-excel'));
    expect(screen.getByTestId('upload-file')).toHaveAttribute('accept', '.xlsx');
    expect(screen.getByTestId('table-layout-help')).toHaveTextContent('url');
    expect(screen.getByTestId('sample-csv')).toBeInTheDocument();
    expect(screen.getByTestId('upload-base-url')).not.toBeRequired();
    expect(screen.getByTestId('upload-proceed')).toHaveTextContent('Proceed with Script');
  });

  it('asks for a file, and refuses a wrong type or a file over 25 MB before sending anything', async () => {
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await openScreen();
    expect(await screen.findByText('.json, .yaml, .yml · up to 25 MB')).toBeInTheDocument();
    await user.click(screen.getByTestId('upload-proceed'));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('Please select a Swagger file first');
    await user.click(screen.getByTestId('upload-kind-postman'));
    await user.click(screen.getByTestId('upload-proceed'));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('Please select a Postman file first');

    await user.upload(screen.getByTestId('upload-file'), file('collection.yaml'));
    await user.click(screen.getByTestId('upload-proceed'));
    expect(screen.getByTestId('upload-error')).toHaveTextContent(
      'collection.yaml is not a Postman Collection file: choose a file ending in .json',
    );

    const big = file('big.json');
    Object.defineProperty(big, 'size', { value: 26 * 1024 * 1024 });
    await user.upload(screen.getByTestId('upload-file'), big);
    await user.click(screen.getByTestId('upload-proceed'));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('big.json is larger than 25 MB');

    await user.click(screen.getByTestId('upload-kind-swagger'));
    await user.upload(screen.getByTestId('upload-file'), file('spec.json'));
    await user.type(screen.getByTestId('upload-base-url'), 'localhost:8080');
    await user.click(screen.getByTestId('upload-proceed'));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('The base URL must be a full URL');
    expect(fetchMock.mock.calls.some(([url]) => urlOf(url).includes('parse'))).toBe(false);
  });

  it("follows the server's own upload bound: a server set to 40 MB takes a 26 MB file", async () => {
    const user = userEvent.setup({ delay: null });
    useHandlers({
      'GET /api/upload-limits': () =>
        json({ max_file_bytes: 40 * 1024 * 1024, max_upload_bytes: 50 * 1024 * 1024 }),
    });
    await openScreen();
    expect(await screen.findByText('.json, .yaml, .yml · up to 40 MB')).toBeInTheDocument();
    const big = file('big.json');
    Object.defineProperty(big, 'size', { value: 26 * 1024 * 1024 });
    await user.upload(screen.getByTestId('upload-file'), big);
    await user.click(screen.getByTestId('upload-proceed'));
    await waitFor(() => expect(calls('/api/parse-swagger')).toHaveLength(1));
  });

  // Hundreds of rows and check boxes in jsdom: slow on a loaded 2-core box, so a longer bound than the rest.
  it(
    'lets the user search, filter and pick among 417 operations, and imports only the selected',
    {
      timeout: 60_000,
    },
    async () => {
      const user = userEvent.setup({ delay: null });
      const TAGS = ['accounts', 'charges', 'customers'];
      const METHODS = ['GET', 'POST', 'DELETE'];
      const operations = Array.from({ length: 417 }, (_, i) => {
        const method = METHODS[i % 3] ?? 'GET';
        const tag = TAGS[Math.floor(i / 3) % 3] ?? 'accounts';
        return {
          name: `Operation ${i}`,
          method,
          path: `/v1/${tag}/${i}`,
          tags: [tag],
          operationId: i === 202 ? 'PostChargesCapture' : `${method.toLowerCase()}_${tag}_${i}`,
        };
      });
      useHandlers({
        'POST /api/parse-swagger': () =>
          json({
            ...parseAnswer(
              steps(
                ...operations.map((o) => ({
                  name: o.name,
                  method: o.method,
                  url: `http://127.0.0.1:9${o.path}`,
                })),
              ),
              { title: 'Stripe API' },
            ),
            apis: operations,
          }),
      });
      await openScreen();
      await upload(user, 'stripe.json');
      const picker = await screen.findByTestId('operation-picker');
      expect(picker).toHaveTextContent('Choose the operations to import');
      expect(screen.getByTestId('pick-count')).toHaveTextContent('417 of 417 selected');
      expect(screen.getByTestId('pick-import')).toHaveTextContent('Import 417 selected');
      // A page of rows at a time, so that 417 (or 771) stay quick to draw.
      expect(screen.getAllByTestId('pick-row')).toHaveLength(50);
      expect(screen.getByTestId('show-more')).toHaveTextContent('Show 100 more (50 of 417 shown)');

      // Search by operationId, then by path.
      await user.click(screen.getByTestId('pick-search'));
      await user.paste('postchargescapture');
      expect(screen.getAllByTestId('pick-row').map((row) => row.textContent)).toEqual([
        'POST/v1/charges/202Operation 202PostChargesCapturecharges',
      ]);
      await user.clear(screen.getByTestId('pick-search'));
      await user.paste('/v1/customers/413');
      expect(screen.getAllByTestId('pick-row')).toHaveLength(1);
      await user.clear(screen.getByTestId('pick-search'));

      // Select none, then the DELETE calls tagged charges only.
      await user.click(screen.getByTestId('pick-none'));
      expect(screen.getByTestId('pick-count')).toHaveTextContent('0 of 417 selected');
      expect(screen.getByTestId('pick-import')).toBeDisabled();
      await user.selectOptions(screen.getByTestId('pick-tag'), 'charges');
      await user.selectOptions(screen.getByTestId('pick-method'), 'DELETE');
      const wanted = operations.filter((o) => o.tags[0] === 'charges' && o.method === 'DELETE');
      expect(screen.getByTestId('pick-count')).toHaveTextContent(
        `0 of 417 selected · ${wanted.length} shown`,
      );
      await user.click(screen.getByTestId('pick-all'));
      // One more by hand, found by its tag and method in the search.
      await user.selectOptions(screen.getByTestId('pick-tag'), '');
      await user.selectOptions(screen.getByTestId('pick-method'), '');
      await user.click(screen.getByTestId('pick-search'));
      await user.paste('accounts get');
      await user.click(screen.getByTestId('pick-0'));
      expect(screen.getByTestId('pick-count')).toHaveTextContent(`${wanted.length + 1} of 417 selected`);
      await user.click(screen.getByTestId('pick-import'));

      await waitFor(() =>
        expect(screen.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure'),
      );
      expect(titles()).toEqual(['Operation 0', ...wanted.map((o) => o.name)]);
      expect(screen.getByTestId('import-result')).toHaveTextContent(
        `Imported ${wanted.length + 1} APIs from stripe.json`,
      );
    },
  );

  it('imports a small document whole, without the choice', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await upload(user);
    await waitFor(() =>
      expect(screen.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure'),
    );
    expect(screen.queryByTestId('operation-picker')).not.toBeInTheDocument();
    expect(titles()).toEqual(['List pets', 'Create a pet', 'Show a pet']);
  });

  it('uploads a Swagger file with its base URL, shows Processing..., and opens step 2 with the APIs', async () => {
    const user = userEvent.setup({ delay: null });
    let answer: (response: Response) => void = () => undefined;
    useHandlers({
      'POST /api/parse-swagger': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    await openScreen();
    await upload(user, 'petstore.yaml', 'http://127.0.0.1:9/v1');
    const proceed = screen.getByTestId('upload-proceed');
    expect(proceed).toHaveTextContent('Processing...');
    expect(proceed).toBeDisabled();
    const sent = formOf('/api/parse-swagger');
    expect((sent?.get('file') as File).name).toBe('petstore.yaml');
    expect(sent?.get('base_url')).toBe('http://127.0.0.1:9/v1');

    answer(
      json(
        parseAnswer(PETS, {}, [
          { location: 'paths./pets.get', message: 'external $ref "common.yaml" was not uploaded' },
        ]),
      ),
    );
    await waitFor(() =>
      expect(screen.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure'),
    );
    expect(titles()).toEqual(['List pets', 'Create a pet', 'Show a pet']);
    expect(screen.getByTestId('api-count')).toHaveTextContent('3 in plan');
    expect(screen.getByTestId('import-result')).toHaveTextContent('Imported 3 APIs from petstore.yaml');
    expect(screen.getByTestId('import-warnings')).toHaveTextContent(
      'external $ref "common.yaml" was not uploaded',
    );
    expect(screen.getByTestId('plan-settings')).toHaveTextContent('Test Configuration');
    expect(screen.getByTestId('plan-name')).toHaveValue('Swagger Petstore');
    expect(
      within(screen.getByTestId('plan-tool'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['JMeter', 'K6', 'Locust', 'Taurus']);
    const buttons: [string, string][] = [
      ['validate-plan', 'Validate Script'],
      ['generate-plan', 'Generate Script'],
      ['save-plan', 'Save Test Plan'],
      ['run-script', 'Run Script'],
      ['view-details', 'Details'],
      ['download-script', 'Download'],
      ['script-copy', 'Copy'],
    ];
    for (const [id, label] of buttons) {
      expect(screen.getByTestId(id)).toHaveTextContent(label);
    }
  });

  it("shows the server's reason when a file cannot be imported, and stays usable", async () => {
    const user = userEvent.setup({ delay: null });
    useHandlers({
      'POST /api/parse-swagger': () =>
        json(
          {
            detail:
              'broken.yaml: YAML parse error at line 7, column 1: Implicit keys need to be on a single line',
          },
          400,
          'Bad Request',
        ),
    });
    await openScreen();
    await upload(user, 'broken.yaml');
    expect(await screen.findByTestId('upload-error')).toHaveTextContent(
      'The file could not be imported: broken.yaml: YAML parse error at line 7, column 1',
    );
    expect(screen.getByTestId('upload-proceed')).toBeEnabled();
    expect(screen.getByTestId('upload-proceed')).toHaveTextContent('Proceed with Script');
    expect(screen.getByTestId('upload-chosen')).toHaveTextContent('broken.yaml');

    useHandlers({
      'POST /api/parse-swagger': () =>
        json(
          { detail: 'The file is larger than 25 MB, the largest upload accepted.' },
          413,
          'Payload Too Large',
        ),
    });
    await user.click(screen.getByTestId('upload-proceed'));
    await waitFor(() =>
      expect(screen.getByTestId('upload-error')).toHaveTextContent('The file is larger than 25 MB'),
    );
  });

  it('re-bases a Postman collection on the base URL in the browser, and sends HAR, CSV and cURL to their importers', async () => {
    const user = userEvent.setup({ delay: null });
    useHandlers({
      'POST /api/parse-postman': () =>
        json(
          parseAnswer(
            steps(
              { name: 'Folder / Get users', url: 'https://api.example.com/users?page=1' },
              { name: 'Folder / Sub / Get user', url: '{{baseUrl}}/users/1' },
            ),
            { format: 'postman', kind: 'Postman collection v2.1.0', title: 'Users' },
            [{ location: 'Folder / Get users', message: 'the test script is not run' }],
          ),
        ),
    });
    await openScreen();
    await user.click(screen.getByTestId('upload-kind-postman'));
    await upload(user, 'users.postman_collection.json', 'http://127.0.0.1:8080/');
    await waitFor(() => expect(titles()).toEqual(['Folder / Get users', 'Folder / Sub / Get user']));
    expect(formOf('/api/parse-postman')?.get('base_url')).toBeNull();
    expect(screen.getByTestId('api-0-summary-url')).toHaveTextContent('http://127.0.0.1:8080/users');
    expect(screen.getByTestId('api-1-summary-url')).toHaveTextContent('http://127.0.0.1:8080/users/1');
    expect(screen.getByTestId('import-warnings')).toHaveTextContent('the test script is not run');

    // Back to step 1: another kind of input replaces the APIs, the plan name stays.
    useHandlers({
      'POST /api/parse-curl': () =>
        json(
          parseAnswer(steps({ name: 'POST /login', method: 'POST', url: 'https://a.test/login' }), {
            format: 'curl',
            kind: 'cURL',
            title: '',
          }),
        ),
      'POST /api/functional/parse-file': () =>
        json(
          parseAnswer(steps({ name: 'Row', url: 'https://a.test/row' }), {
            format: 'csv',
            kind: 'CSV',
            title: '',
          }),
        ),
    });
    await user.click(screen.getByTestId('upload-another'));
    expect(screen.getByTestId('upload-replacing')).toHaveTextContent('replaces the 2 APIs');
    await user.click(screen.getByTestId('upload-kind-curl'));
    await user.click(screen.getByTestId('upload-proceed'));
    expect(screen.getByTestId('upload-error')).toHaveTextContent('Please paste a curl command first');
    await user.click(screen.getByTestId('upload-curl'));
    await user.paste("curl -X POST https://a.test/login -d '{}'");
    await user.click(screen.getByTestId('upload-proceed'));
    await waitFor(() => expect(titles()).toEqual(['POST /login']));
    expect(bodyOf(calls('/api/parse-curl')[0]?.[1])).toEqual({
      command: "curl -X POST https://a.test/login -d '{}'",
    });
    expect(screen.getByTestId('plan-name')).toHaveValue('Users');

    await user.click(screen.getByTestId('upload-another'));
    await user.click(screen.getByTestId('upload-kind-csv'));
    await upload(user, 'apis.csv');
    await waitFor(() => expect(titles()).toEqual(['Row']));
    expect(formOf('/api/functional/parse-file')?.get('format')).toBe('csv');
  });

  it("imports a Taurus configuration with its CSV files: its calls, and its load and data in the plan's settings", async () => {
    const user = userEvent.setup({ delay: null });
    useHandlers({
      'POST /api/parse-taurus': () =>
        json({
          ...parseAnswer(steps({ name: 'Log in', method: 'POST', url: 'http://127.0.0.1:9/login' }), {
            format: 'taurus',
            kind: 'Taurus configuration',
            title: 'shop.yml',
          }),
          settings: {
            concurrent_users: 20,
            duration: 2,
            load_profile: {
              model: 'users',
              start: 0,
              graceful_stop: '10s',
              stages: [
                { duration: '30s', target: 20 },
                { duration: '1m', target: 20 },
              ],
            },
            data_sources: [{ path: 'logins.csv', loop: true, random_order: false, share: 'all' }],
            data_files: { 'logins.csv': 'user,password\nada,pw' },
            missing_files: [],
          },
        }),
    });
    await openScreen();
    await user.click(screen.getByTestId('upload-kind-taurus'));
    expect(screen.getByTestId('upload-file')).toHaveAttribute('accept', '.yml,.yaml');
    await user.upload(screen.getByTestId('upload-file'), file('shop.yml', 'execution: []', 'text/yaml'));
    await user.upload(
      screen.getByTestId('upload-data-files'),
      file('logins.csv', 'user,password\nada,pw', 'text/csv'),
    );
    await user.click(screen.getByTestId('upload-proceed'));
    await waitFor(() => expect(titles()).toEqual(['Log in']));
    const sent = formOf('/api/parse-taurus');
    expect((sent?.get('file') as File).name).toBe('shop.yml');
    expect((sent?.getAll('files') as File[]).map((f) => f.name)).toEqual(['logins.csv']);
    expect(screen.getByTestId('profile-toggle')).toBeChecked();
    expect(screen.getByTestId('profile-stage-1-duration')).toHaveValue('1m');
    expect(screen.getByTestId('test-data')).toHaveTextContent('logins.csv');
  });

  it('leaves the plan name blank for a pasted cURL command', async () => {
    const user = userEvent.setup({ delay: null });
    useHandlers({
      'POST /api/parse-curl': () =>
        json(
          parseAnswer(steps({ name: 'GET /health', url: 'https://a.test/health' }), {
            format: 'curl',
            kind: 'cURL',
            title: 'the cURL command',
          }),
        ),
    });
    await openScreen();
    await user.click(screen.getByTestId('upload-kind-curl'));
    await user.click(screen.getByTestId('upload-curl'));
    await user.paste('curl https://a.test/health');
    await user.click(screen.getByTestId('upload-proceed'));
    await waitFor(() => expect(titles()).toEqual(['GET /health']));
    expect(screen.getByTestId('plan-name')).toHaveValue('');
  });

  it('duplicates an API with _copy, removes one after confirming, and says why the last one stays', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await upload(user);
    await waitFor(() => expect(titles()).toHaveLength(3));

    await user.click(screen.getByTestId('api-0-duplicate'));
    expect(titles()).toEqual(['List pets', 'List pets_copy', 'Create a pet', 'Show a pet']);
    // docs/reference/01-authoring.md §9: the copy's URL gets the suffix; the original keeps its own.
    expect(screen.getByTestId('api-1-summary-url')).toHaveTextContent(
      /^http:\/\/127\.0\.0\.1:9\/v1\/pets_copy$/,
    );
    expect(screen.getByTestId('api-0-summary-url')).toHaveTextContent(/^http:\/\/127\.0\.0\.1:9\/v1\/pets$/);

    await user.click(screen.getByTestId('api-2-remove'));
    expect(await answerConfirm(user, false)).toBe('Remove API 3 (POST http://127.0.0.1:9/v1/pets)?');
    expect(titles()).toHaveLength(4);
    await user.click(screen.getByTestId('api-2-remove'));
    await answerConfirm(user, true);
    await waitFor(() => expect(titles()).toEqual(['List pets', 'List pets_copy', 'Show a pet']));

    await user.click(screen.getByTestId('api-2-remove'));
    await answerConfirm(user, true);
    await waitFor(() => expect(titles()).toHaveLength(2));
    await user.click(screen.getByTestId('api-1-remove'));
    await answerConfirm(user, true);
    await waitFor(() => expect(titles()).toHaveLength(1));
    expect(titles()).toEqual(['List pets']);
    const last = screen.getByTestId('api-0-remove');
    expect(last).toHaveAttribute('aria-disabled', 'true');
    expect(last).toHaveAccessibleDescription('Cannot remove the last API. At least one API is required.');
    dismissNotices();
    await user.click(last);
    expect(alerts()).toEqual(['Cannot remove the last API. At least one API is required.']);
    expect(confirmQuestion()).toBeNull();
    expect(titles()).toEqual(['List pets']);
  });

  it('asks before removing an API whose URL is still blank', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await upload(user);
    await waitFor(() => expect(titles()).toHaveLength(3));
    await user.click(screen.getByTestId('add-url'));
    expect(titles()).toHaveLength(4);

    await user.click(screen.getByTestId('api-3-remove'));
    expect(await answerConfirm(user, false)).toBe('Remove API 4? It has no URL yet.');
    expect(titles()).toHaveLength(4);

    // A named API without a URL is asked about by its name.
    await user.type(screen.getByTestId('api-3-name'), 'Draft');
    await user.click(screen.getByTestId('api-3-remove'));
    expect(await answerConfirm(user, false)).toBe('Remove API 4 (Draft)?');
    expect(titles()).toHaveLength(4);

    await user.click(screen.getByTestId('api-3-remove'));
    expect(await answerConfirm(user, true)).toBe('Remove API 4 (Draft)?');
    expect(titles()).toHaveLength(3);
  });

  it('stops Save, Generate and Validate on an API with a blank URL, shows it on the field, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await upload(user);
    await waitFor(() => expect(titles()).toHaveLength(3));
    await user.click(screen.getByTestId('generate-plan'));
    await waitFor(() => expect(screen.getByTestId('validate-plan')).toBeEnabled());
    const generated = calls('/api/generate-script').length;

    await user.click(screen.getByTestId('api-1-toggle'));
    await user.clear(screen.getByTestId('api-1-url'));
    expect(screen.getByTestId('api-count')).toHaveTextContent('2 in plan');

    await user.click(screen.getByTestId('save-plan'));
    expect(alerts()).toEqual(['Failed to save test plan: API 2, URL: Enter the URL']);
    expect(calls('/api/save-test-plan')).toHaveLength(0);
    const url = screen.getByTestId('api-1-url');
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription('Enter the URL');

    await user.click(screen.getByTestId('generate-plan'));
    expect(alerts()).toContain('Failed to generate script: API 2, URL: Enter the URL');
    expect(calls('/api/generate-script')).toHaveLength(generated);

    await user.click(screen.getByTestId('validate-plan'));
    expect(alerts()).toContain('Failed to validate script: API 2, URL: Enter the URL');
    expect(calls('/api/validate-script')).toHaveLength(0);

    // A new API needs both its name and its URL; the name comes first, as on the card.
    await user.type(url, 'http://127.0.0.1:9/v1/pets');
    await user.click(screen.getByTestId('add-url'));
    dismissNotices();
    await user.click(screen.getByTestId('save-plan'));
    expect(alerts()).toEqual(['Failed to save test plan: API 4, API name: Enter the API name']);
    expect(screen.getByTestId('api-3-url')).toHaveAccessibleDescription('Enter the URL');
    expect(calls('/api/save-test-plan')).toHaveLength(0);
  });

  it('expands an API to its Basic, Authorization and Headers tabs, and requires its name', async () => {
    const user = userEvent.setup({ delay: null });
    await openScreen();
    await upload(user);
    await waitFor(() => expect(titles()).toHaveLength(3));
    expect(screen.queryByTestId('api-1-panel-basic')).not.toBeInTheDocument();
    const toggle = screen.getByTestId('api-1-toggle');
    expect(toggle).toHaveAccessibleName('Expand');
    await user.click(toggle);
    expect(toggle).toHaveAccessibleName('Collapse');
    const card = screen.getByTestId('api-1');
    expect(
      within(card)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Basic', 'Authorization', 'Headers']);
    expect(screen.getByTestId('api-1-name')).toHaveValue('Create a pet');
    expect(screen.getByTestId('api-1-payload')).toHaveValue('{"name":"Rex"}');
    expect(
      within(screen.getByTestId('api-1-method'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

    await user.click(screen.getByTestId('api-1-tab-authorization'));
    expect(screen.getByTestId('api-1-auth-type')).toBeInTheDocument();
    await user.click(screen.getByTestId('api-1-tab-headers'));
    expect(screen.getByTestId('api-1-headers')).toBeInTheDocument();
    await user.click(screen.getByTestId('api-1-tab-basic'));

    await user.clear(screen.getByTestId('api-1-name'));
    await user.click(screen.getByTestId('save-plan'));
    expect(alerts()).toEqual(['Failed to save test plan: API 2, API name: Enter the API name']);
    expect(calls('/api/save-test-plan')).toHaveLength(0);
    await user.click(toggle);
    expect(screen.getByTestId('api-1-problem')).toHaveTextContent('Enter the API name');
    expect(screen.getByTestId('api-1-title')).toHaveTextContent('Unnamed API');
  });

  it('saves the plan as script-input, then updates it, with the Save/Update label', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openScreen();
    await upload(user);
    await waitFor(() => expect(titles()).toHaveLength(3));
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(alerts()).toEqual(['Test plan saved successfully!']));
    expect(bodyOf(calls('/api/save-test-plan')[0]?.[1])).toMatchObject({
      name: 'Swagger Petstore',
      source_page: 'script-input',
      user_email: TEST_USER.email,
      urls: [{ name: 'List pets' }, { name: 'Create a pet', method: 'POST' }, { name: 'Show a pet' }],
    });
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-1'));
    expect(screen.getByTestId('save-plan')).toHaveTextContent('Update Test Plan');
    expect(screen.getByTestId('plan-state')).toHaveTextContent('Saved plan');
    // Still step 2, with the upload summary: the editor was kept across the address change.
    expect(screen.getByTestId('import-summary')).toBeInTheDocument();

    await user.click(screen.getByTestId('api-0-duplicate'));
    await user.click(screen.getByTestId('save-plan'));
    await waitFor(() => expect(alerts()).toContain('Test plan updated successfully!'));
    expect(bodyOf(calls('/api/update-test-plan/plan-1')[0]?.[1])).toMatchObject({
      source_page: 'script-input',
      urls: [
        { name: 'List pets', url: 'http://127.0.0.1:9/v1/pets' },
        { name: 'List pets_copy', url: 'http://127.0.0.1:9/v1/pets_copy' },
        {},
        {},
      ],
    });
  });

  it('generates the script with its download name, copies it, and validates with a totals card', async () => {
    const user = userEvent.setup({ delay: null });
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    useHandlers({
      'POST /api/validate-script': () =>
        json({
          total_apis: 3,
          successful: 2,
          failed: 1,
          api_results: [
            {
              status: 'success',
              method: 'GET',
              url: 'http://127.0.0.1:9/v1/pets',
              response_time: 12,
              response_status: 200,
              error: null,
            },
            {
              status: 'success',
              method: 'POST',
              url: 'http://127.0.0.1:9/v1/pets',
              response_time: 15,
              response_status: 201,
              error: null,
            },
            {
              status: 'error',
              method: 'GET',
              url: 'http://127.0.0.1:9/v1/pets/1',
              response_time: 9,
              response_status: 404,
              error: 'HTTP 404',
            },
          ],
        }),
    });
    await openScreen();
    await upload(user);
    await waitFor(() => expect(titles()).toHaveLength(3));

    await user.click(screen.getByTestId('download-script'));
    expect(alerts()).toEqual(['No script generated yet. Please generate a script first.']);
    // docs/reference/01-authoring.md §5: Validate is disabled with no script.
    expect(screen.getByTestId('validate-plan')).toBeDisabled();
    expect(screen.getByTestId('script-validate')).toBeDisabled();
    await user.click(screen.getByTestId('generate-plan'));
    const script = screen.getByTestId('script-text');
    await waitFor(() => expect(editorText(script)).toContain('<jmeterTestPlan'));
    expect(screen.getByTestId('script-filename')).toHaveTextContent('performance_test_jmeter.jmx');
    await user.selectOptions(screen.getByTestId('plan-tool'), 'k6');
    await waitFor(() => expect(editorText(script)).toContain("from 'k6/http'"));
    expect(screen.getByTestId('script-filename')).toHaveTextContent('performance_test_k6.js');

    await user.click(screen.getByTestId('script-copy'));
    expect(writeText).toHaveBeenCalledWith(editorText(script));
    await waitFor(() => expect(alerts()).toContain('Script copied to clipboard!'));
    expect(screen.getByText('Script copied to clipboard!').closest('[role]')).toHaveAttribute(
      'role',
      'status',
    );

    await user.click(screen.getByTestId('validate-plan'));
    const card = await screen.findByTestId('validation-card');
    const totals = within(card).getByTestId('validation-totals');
    expect(totals).toHaveTextContent('Total APIs3');
    expect(totals).toHaveTextContent('Successful2');
    expect(totals).toHaveTextContent('Failed1');
    expect(within(card).getByTestId('validation-result-2-status')).toHaveTextContent('FAIL');
    expect(bodyOf(calls('/api/validate-script')[0]?.[1])).toMatchObject({
      tool: 'k6',
      validation_mode: true,
    });
    await user.click(within(card).getByTestId('validation-close'));
    expect(screen.queryByTestId('validation-card')).not.toBeInTheDocument();

    // The results describe the APIs and tool they were made with: changing either drops them.
    await user.click(screen.getByTestId('validate-plan'));
    await screen.findByTestId('validation-card');
    await user.type(screen.getByTestId('plan-name'), ' v2');
    expect(screen.getByTestId('validation-card')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('plan-tool'), 'locust');
    expect(screen.queryByTestId('validation-card')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('validate-plan'));
    await screen.findByTestId('validation-card');
    await user.click(screen.getByTestId('api-0-duplicate'));
    expect(screen.queryByTestId('validation-card')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('validate-plan'));
    await screen.findByTestId('validation-card');
    await user.click(screen.getByTestId('api-2-toggle'));
    await user.type(screen.getByTestId('api-2-url'), '/x');
    expect(screen.queryByTestId('validation-card')).not.toBeInTheDocument();
    expect(calls('/api/validate-script')).toHaveLength(4);
  });

  it('opens a saved plan at step 2, by ?planId and from storage', async () => {
    const first = await openScreen('/create-test/script-input?planId=plan-7');
    expect(screen.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved pets'));
    expect(titles()).toEqual(['List pets', 'Show a pet']);
    expect(screen.getByTestId('plan-tool')).toHaveValue('k6');
    expect(screen.getByTestId('save-plan')).toHaveTextContent('Update Test Plan');
    expect(screen.queryByTestId('upload-step')).not.toBeInTheDocument();
    first.unmount();

    localStorage.setItem('loadSavedPlanId', 'plan-7');
    const { router } = await openScreen();
    expect(screen.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved pets'));
    expect(localStorage.getItem('loadSavedPlanId')).toBeNull();
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-7'));
  });

  it('sends a plan made on the URL screen to /create-test/url-input', async () => {
    useHandlers({ 'GET /api/get-test-plan/plan-7': () => json(savedPlan({ source_page: 'url-input' })) });
    const { router } = await openScreen('/create-test/script-input?planId=plan-7');
    await screen.findByTestId('url-input-page', undefined, { timeout: 10_000 });
    expect(router.state.location.pathname).toBe('/create-test/url-input');
    await waitFor(() => expect(screen.getByTestId('plan-name')).toHaveValue('Saved pets'));
    await waitFor(() => expect(router.state.location.search).toBe('?planId=plan-7'));
  });

  it('says so when a saved plan cannot be loaded', async () => {
    await openScreen('/create-test/script-input?planId=missing');
    await waitFor(() => expect(alerts()).toEqual(['Failed to load saved plan data. Please try again.']));
    expect(screen.getByTestId('plan-load-error')).toBeInTheDocument();
    expect(screen.queryByTestId('save-plan')).not.toBeInTheDocument();
  });

  describe('Run Script', () => {
    const registered = SCREEN_LOADERS.testResult;
    beforeEach(() => {
      SCREEN_LOADERS.testResult = () =>
        Promise.resolve({ default: () => <div data-testid="result-page">result</div> });
    });
    afterEach(() => {
      SCREEN_LOADERS.testResult = registered;
    });

    it('saves the plan first, runs it, and opens its result', async () => {
      const user = userEvent.setup({ delay: null });
      useHandlers({ 'POST /api/run-test': () => json({ test_id: 'run-5' }) });
      const { router } = await openScreen();
      await upload(user);
      await waitFor(() => expect(titles()).toHaveLength(3));
      await user.click(screen.getByTestId('run-script'));
      expect(await screen.findByTestId('result-page')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/test-result/run-5');
      const urls = fetchMock.mock.calls.map(([url]) => url);
      expect(urls.indexOf('/api/save-test-plan')).toBeLessThan(urls.indexOf('/api/run-test'));
      expect(bodyOf(calls('/api/run-test')[0]?.[1])).toMatchObject({
        plan_id: 'plan-1',
        planName: 'Swagger Petstore',
        tool: 'jmeter',
      });
      expect(JSON.parse(localStorage.getItem('currentTestConfig') ?? '{}')).toMatchObject({
        testId: 'run-5',
      });
    });

    it('does not save or run a plan with an API whose URL is blank', async () => {
      const user = userEvent.setup({ delay: null });
      useHandlers({ 'POST /api/run-test': () => json({ test_id: 'run-5' }) });
      await openScreen();
      await upload(user);
      await waitFor(() => expect(titles()).toHaveLength(3));
      await user.click(screen.getByTestId('api-2-toggle'));
      await user.clear(screen.getByTestId('api-2-url'));
      await user.click(screen.getByTestId('run-script'));
      expect(alerts()).toEqual(['Failed to run test plan: API 3, URL: Enter the URL']);
      expect(screen.getByTestId('api-2-url')).toHaveAccessibleDescription('Enter the URL');
      expect(calls('/api/save-test-plan')).toHaveLength(0);
      expect(calls('/api/run-test')).toHaveLength(0);
    });

    it('shows the spec alert when the run request fails, and opens no result page', async () => {
      const user = userEvent.setup({ delay: null });
      useHandlers({
        'POST /api/run-test': () => json({ detail: 'The engine is busy' }, 503, 'Service Unavailable'),
      });
      const { router } = await openScreen();
      await upload(user);
      await waitFor(() => expect(titles()).toHaveLength(3));
      await user.click(screen.getByTestId('run-script'));
      await waitFor(() => expect(alerts()).toEqual(['Failed to run test plan: The engine is busy']));
      expect(router.state.location.pathname).toBe('/create-test/script-input');
      expect(screen.queryByTestId('result-page')).not.toBeInTheDocument();
      expect(screen.getByTestId('run-script')).toBeEnabled();
    });
  });
});
