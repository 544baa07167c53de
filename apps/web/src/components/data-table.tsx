import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** What a row or a cell carries besides its content: a title for hover, data-* for tests and styles. */
export type DataAttributes = { title?: string } & { [name: `data-${string}`]: string | undefined };

export interface DataColumn<Row> {
  /** The column's React key. */
  key: string;
  header: ReactNode;
  /** Figures: the header and the cells are right-aligned. */
  numeric?: boolean;
  /** The cell names its row (<th scope="row">), e.g. the metric a row compares. */
  rowHeader?: boolean;
  /** Classes on the header and every cell of the column, e.g. `hidden sm:table-cell`. */
  className?: string;
  /** Classes on the cells only; a function when they depend on the row. */
  cellClassName?: string | ((row: Row) => string);
  cellAttributes?: (row: Row, index: number) => DataAttributes;
  cell: (row: Row, index: number) => ReactNode;
}

export interface DataTableProps<Row> {
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  rowAttributes?: (row: Row, index: number) => DataAttributes;
  rowClassName?: string;
  /** The table's least width (a `min-w-…` class): below it the table scrolls sideways inside its card. */
  minWidth?: string;
  /** Tighter side padding below the `sm` breakpoint, for a table meant to fit a phone. */
  compact?: boolean;
}

const PADDING = 'px-3 first:pl-6 last:pr-6';
const COMPACT_PADDING = 'px-2 first:pl-4 last:pr-4 sm:px-3 sm:first:pl-6 sm:last:pr-6';

/**
 * The app's table of figures inside a card (results, history comparison): a header row of column
 * headers (`scope="col"`), one row per item, and sideways scrolling when the screen is narrower than
 * `minWidth`. Rows and cells keep the attributes the screens' tests select on (`rowAttributes`,
 * `cellAttributes`).
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowAttributes,
  rowClassName,
  minWidth,
  compact = false,
}: DataTableProps<Row>) {
  const padding = compact ? COMPACT_PADDING : PADDING;
  const head = cn('whitespace-nowrap py-2.5 text-xs font-medium text-muted-foreground', padding);
  const cell = cn('whitespace-nowrap py-3', padding);
  return (
    <div className="relative overflow-x-auto pb-2">
      <table className={cn('w-full text-left text-sm', minWidth)}>
        <thead className="border-y border-border bg-muted/40">
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={cn(head, column.numeric && 'text-right', column.className)}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)} className={rowClassName} {...rowAttributes?.(row, index)}>
              {columns.map((column) => {
                const Cell = column.rowHeader ? 'th' : 'td';
                const own =
                  typeof column.cellClassName === 'function'
                    ? column.cellClassName(row)
                    : column.cellClassName;
                return (
                  <Cell
                    key={column.key}
                    scope={column.rowHeader ? 'row' : undefined}
                    className={cn(cell, column.numeric && 'text-right', column.className, own)}
                    {...column.cellAttributes?.(row, index)}
                  >
                    {column.cell(row, index)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
