import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
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
