import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataColumn } from './data-table';

interface Row {
  name: string;
  count: number;
}

const ROWS: Row[] = [
  { name: 'Alpha', count: 3 },
  { name: 'Beta', count: 12 },
];

const COLUMNS: DataColumn<Row>[] = [
  { key: 'name', header: 'Name', rowHeader: true, cell: (row) => row.name },
  {
    key: 'count',
    header: 'Count',
    numeric: true,
    className: 'hidden sm:table-cell',
    cellClassName: (row) => (row.count > 10 ? 'text-destructive-text' : 'text-muted-foreground'),
    cellAttributes: (row) => ({ 'data-testid': 'count', title: `${row.count} requests` }),
    cell: (row) => row.count,
  },
];

describe('DataTable', () => {
  it('heads each column, names each row, and keeps the attributes and classes the screens select on', () => {
    render(
      <DataTable
        columns={COLUMNS}
        rows={ROWS}
        rowKey={(row) => row.name}
        rowAttributes={(row) => ({ 'data-testid': 'row', 'data-key': row.name })}
        rowClassName="hover:bg-muted/30"
        minWidth="min-w-[560px]"
      />,
    );
    expect(screen.getByRole('table')).toHaveClass('min-w-[560px]');
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Count']);
    expect(headers[1]).toHaveClass('text-right', 'hidden', 'sm:table-cell');

    const rows = screen.getAllByTestId('row');
    expect(rows.map((row) => row.getAttribute('data-key'))).toEqual(['Alpha', 'Beta']);
    expect(rows[0]).toHaveClass('hover:bg-muted/30');
    expect(within(rows[0]!).getByRole('rowheader')).toHaveTextContent('Alpha');
    const counts = screen.getAllByTestId('count');
    expect(counts.map((cell) => cell.tagName)).toEqual(['TD', 'TD']);
    expect(counts[0]).toHaveClass('text-right', 'hidden', 'text-muted-foreground');
    expect(counts[1]).toHaveClass('text-destructive-text');
    expect(counts[1]).toHaveAttribute('title', '12 requests');
  });
});
