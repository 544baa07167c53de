import { migratePlan } from '@aqa/plan';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderApp, renderWithRouter, signInAs, TEST_USER } from '@/test/render';
import { ImportSummary } from './ImportSummary';
import type { ImportedApis } from './UploadStep';

function imported(needsValue: ImportedApis['needsValue']): ImportedApis {
  return {
    kind: 'swagger',
    entries: [],
    warnings: [],
    info: {
      format: 'swagger',
      kind: 'OpenAPI 3.0.4',
      title: 'Swagger Petstore',
      servers: [],
      requests: 19,
      methods: {},
    },
    needsValue,
    source: 'petstore.yaml',
  };
}

const PET_CALLS = [
  'GET /pet/{petId}',
  'POST /pet/{petId}',
  'DELETE /pet/{petId}',
  'POST /pet/{petId}/uploadImage',
];

describe('the import summary', () => {
  it('lists each variable that needs a value with the calls that send it, folding long lists', () => {
    renderWithRouter(
      <ImportSummary
        imported={imported([
          { name: 'petId', calls: PET_CALLS },
          { name: 'username', calls: ['GET /user/{username}'] },
        ])}
      />,
    );
    const box = screen.getByTestId('import-needs-value');
    expect(within(box).getByText('Needs a value (2)')).toBeTruthy();
    const items = within(box).getAllByTestId('needs-value-item');
    expect(items.map((item) => item.textContent)).toEqual([
      '{{petId}} — used by GET /pet/{petId}, POST /pet/{petId}, DELETE /pet/{petId} and 1 more',
      '{{username}} — used by GET /user/{username}',
    ]);
  });

  it('says it in Korean', () => {
    renderWithRouter(<ImportSummary imported={imported([{ name: 'petId', calls: PET_CALLS }])} />, {
      language: 'ko',
    });
    const box = screen.getByTestId('import-needs-value');
    expect(within(box).getByText('값이 필요한 변수 (1)')).toBeTruthy();
    expect(within(box).getByTestId('needs-value-item').textContent).toBe(
      '{{petId}} — 사용하는 호출: GET /pet/{petId}, POST /pet/{petId}, DELETE /pet/{petId} 외 1개',
    );
  });

  it('shows no such list when every value is in the file', () => {
    renderWithRouter(<ImportSummary imported={imported([])} />);
    expect(screen.getByTestId('import-summary')).toBeTruthy();
    expect(screen.queryByTestId('import-needs-value')).toBeNull();
  });
});

describe('the needs-value list after an upload', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('drops a variable that the base URL given on the screen replaced', async () => {
    const urls = migratePlan({
      name: 'x',
      urls: [
        { name: 'Show a pet', url: '{{baseUrl}}/pets/{{petId}}' },
        { name: 'List pets', url: '{{baseUrl}}/pets' },
      ],
    }).urls;
    vi.stubGlobal(
      'fetch',
      createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'POST /api/parse-postman': () =>
          json({
            apis: [],
            steps: urls,
            warnings: [],
            info: {
              format: 'postman',
              kind: 'Postman collection v2.1.0',
              title: 'Pets',
              servers: [],
              requests: 2,
              methods: {},
            },
            needs_value: [
              { name: 'baseUrl', calls: ['GET /pets/{{petId}}', 'GET /pets'] },
              { name: 'petId', calls: ['GET /pets/{{petId}}'] },
            ],
          }),
      }),
    );
    signInAs();
    const user = userEvent.setup({ delay: null });
    renderApp('/create-test/script-input');
    await screen.findByTestId('script-input-page', undefined, { timeout: 10_000 });
    await user.click(screen.getByTestId('upload-kind-postman'));
    await user.upload(
      screen.getByTestId('upload-file'),
      new File(['{}'], 'pets.postman_collection.json', { type: 'application/json' }),
    );
    await user.type(screen.getByTestId('upload-base-url'), 'http://127.0.0.1:9');
    await user.click(screen.getByTestId('upload-proceed'));
    const box = await screen.findByTestId('import-needs-value');
    expect(
      within(box)
        .getAllByTestId('needs-value-item')
        .map((item) => item.textContent),
    ).toEqual(['{{petId}} — used by GET /pets/{{petId}}']);
  });
});
