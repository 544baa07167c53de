import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { CompareApisTable } from './CompareTables';

/* The comparison's API rows (issue 24): the name, else the path, the host once above, the URL on hover. */

const HOST = 'http://127.0.0.1:9';

describe('API labels of the comparison', () => {
  it('the comparison: name, else path; the host once above, in Korean too', () => {
    const api = (name: string, path: string, method: string) => ({
      key: `${method} ${path}`,
      name,
      method,
      url: `${HOST}${path}`,
      base: null,
      candidate: null,
      deltas: {
        average_response_time: { delta_percent: null, worse: false },
        percentile_95: { delta_percent: null, worse: false },
        error_rate: { delta_percent: null, worse: false },
      },
    });
    renderWithRouter(
      <CompareApisTable apis={[api('', '/users', 'GET'), api('Create order', '/orders', 'POST')]} />,
      { language: 'ko' },
    );
    const cells = screen.getAllByTestId('compare-api').map((row) => row.querySelector('td'));
    expect(cells[0]?.querySelector('[data-testid="api-row-label"]')).toHaveAttribute(
      'title',
      `${HOST}/users`,
    );
    expect(cells.map((cell) => cell?.querySelector('[data-testid="api-row-label"]')?.textContent)).toEqual([
      '/users',
      'Create order',
    ]);
    for (const cell of cells) expect(cell?.textContent).not.toContain(HOST);
    expect(screen.getByTestId('api-host')).toHaveTextContent(`호스트: ${HOST}`);
  });
});
