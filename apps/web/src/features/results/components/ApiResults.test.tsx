import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { apiResultOf } from '@/test/wire-builders';
import { ApiResultsList, ApiResultsTable } from './ApiResults';

/*
 * API labels in the result tables and cards (issue 24): the API's name, else its path — not "METHOD +
 * full URL" — with the host said once above and the whole URL on hover.
 */

const HOST = 'http://127.0.0.1:9';
const unnamed = (method: string, path: string) =>
  apiResultOf({
    name: `${method} ${HOST}${path}`,
    label: `${method} ${HOST}${path}`,
    url: `${HOST}${path}`,
    method,
  });
const APIS = [
  unnamed('GET', '/users'),
  apiResultOf({ name: 'Create order', url: `${HOST}/orders`, method: 'POST' }),
];

describe('API labels', () => {
  it('the table: name, else path; the host once above; the whole URL on hover', () => {
    renderWithRouter(<ApiResultsTable apiResults={APIS} />);
    const rows = screen.getAllByTestId<HTMLTableRowElement>('api-table-row');
    expect(rows.map((row) => row.cells[0]?.textContent)).toEqual(['/users', 'Create order']);
    expect(rows[0]?.cells[0]).toHaveAttribute('title', `${HOST}/users`);
    expect(screen.getAllByTestId('api-host')).toHaveLength(1);
    expect(screen.getByTestId('api-host')).toHaveTextContent(`Host: ${HOST}`);
  });

  it('the cards: name, else path; no row repeats the host', () => {
    renderWithRouter(<ApiResultsList apiResults={APIS} />);
    const cards = screen.getAllByTestId('api-result');
    expect(cards.map((card) => within(card).getByTestId('api-result-name').textContent)).toEqual([
      '/users',
      'Create order',
    ]);
    for (const card of cards) expect(card.textContent).not.toContain(HOST);
    expect(within(cards[1]!).getByTestId('api-result-name')).toHaveAttribute('title', `${HOST}/orders`);
    expect(screen.getByTestId('api-host')).toHaveTextContent(`Host: ${HOST}`);
  });

  it('several hosts: each row keeps its own URL, and no host line', () => {
    renderWithRouter(
      <ApiResultsList
        apiResults={[...APIS, apiResultOf({ name: 'Other', url: 'https://b.test/x', method: 'GET' })]}
      />,
    );
    expect(screen.queryByTestId('api-host')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('api-result')[2]).toHaveTextContent('https://b.test/x');
  });
});
