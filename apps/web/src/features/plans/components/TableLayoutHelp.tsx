import { sampleCsv, sampleXlsx, TABLE_COLUMNS } from '@aqa/converters';
import { Download, Table2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { downloadBlob } from '@/lib/download';

type ColumnGroup = 'required' | 'request' | 'timing' | 'auth' | 'checks';

const GROUP_LABELS: Record<ColumnGroup, MessageKey> = {
  required: 'scriptInput.columnsRequired',
  request: 'scriptInput.columnsRequest',
  timing: 'scriptInput.columnsTiming',
  auth: 'scriptInput.columnsAuth',
  checks: 'scriptInput.columnsChecks',
};

const GROUP_ORDER: readonly ColumnGroup[] = ['required', 'request', 'timing', 'auth', 'checks'];

function groupOf(column: string): ColumnGroup {
  if (column === 'url') return 'required';
  if (column.startsWith('auth')) return 'auth';
  if (column.startsWith('extract') || column.startsWith('assertion')) return 'checks';
  if (column === 'thinkTime' || column === 'timeout' || column === 'transactionRate') return 'timing';
  return 'request';
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The spreadsheet layout of the CSV and Excel importers, grouped from the importer's own column list (so a
 * new column shows up here by itself), and the sample files, written in the browser by the same package.
 */
export function TableLayoutHelp() {
  const t = useT();
  const groups = GROUP_ORDER.map((group) => ({
    group,
    columns: TABLE_COLUMNS.filter((column) => groupOf(column.column) === group),
  })).filter((entry) => entry.columns.length > 0);

  const downloadCsv = () =>
    downloadBlob(new Blob([sampleCsv()], { type: 'text/csv;charset=utf-8' }), 'anybodyqa-sample.csv');
  const downloadXlsx = () => {
    // A copy with a plain ArrayBuffer: Blob parts must not be views of a shared buffer.
    const bytes = new Uint8Array(sampleXlsx());
    downloadBlob(new Blob([bytes], { type: XLSX_TYPE }), 'anybodyqa-sample.xlsx');
  };

  return (
    <section
      className="space-y-3 rounded-lg border border-border bg-muted/30 px-3 py-3 sm:px-4"
      aria-labelledby="table-layout-title"
      data-testid="table-layout-help"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h3 id="table-layout-title" className="flex items-center gap-2 text-sm font-semibold">
            <Table2 aria-hidden className="size-4 text-muted-foreground" />
            {t('scriptInput.layoutTitle')}
          </h3>
          <p className="text-[13px] leading-5 text-muted-foreground">{t('scriptInput.layoutText')}</p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={downloadCsv} data-testid="sample-csv">
            <Download />
            {t('scriptInput.sampleCsv')}
          </Button>
          <Button variant="outline" size="sm" onClick={downloadXlsx} data-testid="sample-xlsx">
            <Download />
            {t('scriptInput.sampleXlsx')}
          </Button>
        </div>
      </div>
      <dl className="grid gap-x-4 gap-y-2 text-[13px] sm:grid-cols-[auto_1fr]">
        {groups.map(({ group, columns }) => (
          <div key={group} className="contents">
            <dt className="font-medium text-foreground">{t(GROUP_LABELS[group])}</dt>
            <dd className="flex min-w-0 flex-wrap gap-1.5">
              {columns.map((column) => (
                <code
                  key={column.column}
                  title={column.example ? `${column.description} — ${column.example}` : column.description}
                  className="rounded bg-card px-1.5 py-0.5 font-mono text-[12px] text-foreground ring-1 ring-border"
                >
                  {column.column}
                </code>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
