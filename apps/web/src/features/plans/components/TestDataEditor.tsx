import {
  PERF_DATA_ERRORS,
  PERF_DATA_MAX_COUNT,
  PerfDataFilesSchema,
  readDataSource,
  utf8Length,
  type DataSource,
} from '@aqa/plan';
import { FileSpreadsheet, Paperclip, X } from 'lucide-react';
import type { Dispatch } from 'react';
import { FilePickButton } from '@/components/file-pick-button';
import { useNotice } from '@/components/notices';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { formatNumber } from '@/features/results';
import { useI18n, useT } from '@/i18n';
import type { PlanForm, PlanFormAction } from '../model/plan-form';

/**
 * A performance plan's test data (docs/adr/0027-load-profiles.md "Test data"): CSV files attached to the
 * plan, each listed with its rows and columns (or the model's own words for what is wrong with it, with
 * the line), removable, with the options of its data source.
 */
export function TestDataEditor({ form, dispatch }: { form: PlanForm; dispatch: Dispatch<PlanFormAction> }) {
  const { t, locale } = useI18n();
  const notice = useNotice();
  const files = form.dataFiles ?? {};

  const attach = async (file: File) => {
    try {
      const text = await file.text();
      const next = { ...files, [file.name]: text };
      // The plan's own bounds (PerfDataFilesSchema: 20 files, 10 MB together), told before the file is added.
      const checked = PerfDataFilesSchema.safeParse(next);
      if (!checked.success) {
        const messages = checked.error.issues.map((issue) => issue.message);
        if (messages.includes(PERF_DATA_ERRORS.tooMany)) {
          notice.error(t('testData.tooMany', { name: file.name, max: PERF_DATA_MAX_COUNT }));
        } else if (messages.includes(PERF_DATA_ERRORS.tooLarge)) {
          const bytes = Object.values(next).reduce((sum, content) => sum + utf8Length(content), 0);
          notice.error(
            t('testData.tooLarge', {
              name: file.name,
              size: formatNumber(bytes / 1024 / 1024, locale, 1, 1),
            }),
          );
        } else {
          notice.error(t('testData.readFailed', { name: file.name, message: messages.join('; ') }));
        }
        return;
      }
      dispatch({ type: 'attachDataFile', name: file.name, text });
    } catch (error) {
      notice.error(t('testData.readFailed', { name: file.name, message: (error as Error).message }));
    }
  };

  return (
    <section className="mt-4 space-y-3 border-t border-border pt-4" data-testid="test-data">
      <div className="space-y-0.5">
        <h3 className="flex items-center gap-2 text-sm font-semibold">
          <FileSpreadsheet aria-hidden className="size-4 text-muted-foreground" />
          {t('testData.title')}
        </h3>
        <p className="text-[13px] leading-5 text-muted-foreground">{t('testData.text')}</p>
      </div>
      {(form.dataSources ?? []).length > 0 && (
        <ul className="divide-y divide-border rounded-lg border border-border">
          {(form.dataSources ?? []).map((source, index) => (
            <DataSourceRow
              key={source.path}
              source={source}
              text={files[source.path]}
              dispatch={dispatch}
              testId={`test-data-${index}`}
            />
          ))}
        </ul>
      )}
      <FilePickButton
        accept=".csv,.txt,text/csv,text/plain"
        onFile={(file) => void attach(file)}
        inputTestId="test-data-input"
        variant="outline"
        size="sm"
      >
        <Paperclip />
        {t('testData.attach')}
      </FilePickButton>
    </section>
  );
}

function DataSourceRow({
  source,
  text,
  dispatch,
  testId,
}: {
  source: DataSource;
  text: string | undefined;
  dispatch: Dispatch<PlanFormAction>;
  testId: string;
}) {
  const t = useT();
  // readDataSource keeps its recent reads in a browser, so a large file is not read again on each render.
  const read = text === undefined ? undefined : readDataSource(source, text);
  const set = (patch: Partial<Pick<DataSource, 'loop' | 'random_order' | 'share'>>) =>
    dispatch({ type: 'setDataSource', path: source.path, patch });
  return (
    <li className="space-y-2 px-3 py-2.5" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="min-w-0 flex-1 font-mono text-[13px] break-all">{source.path}</span>
        {read?.table && (
          <Badge variant="secondary" className="num" data-testid={`${testId}-rows`}>
            {t('testData.rows', { count: read.table.rows.length })}
          </Badge>
        )}
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={t('testData.remove', { name: source.path })}
          onClick={() => dispatch({ type: 'removeDataFile', name: source.path })}
          data-testid={`${testId}-remove`}
        >
          <X />
        </Button>
      </div>
      {read?.table && (
        <p className="text-[13px] text-muted-foreground">
          {t('testData.columns', { names: read.table.names.join(', ') })}
        </p>
      )}
      {read && read.table === undefined && (
        <p className="text-[13px] text-destructive" role="alert" data-testid={`${testId}-problem`}>
          {/* The first problem: what follows an unclosed quote only repeats it in other words. */}
          {read.problems[0]}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-4 text-[13px]">
        <label className="flex items-center gap-2">
          {t('testData.share')}
          <NativeSelect
            value={source.share}
            onChange={(event) => set({ share: event.target.value === 'user' ? 'user' : 'all' })}
            data-testid={`${testId}-share`}
          >
            <option value="all">{t('testData.share.all')}</option>
            <option value="user">{t('testData.share.user')}</option>
          </NativeSelect>
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={source.loop}
            onChange={(event) => set({ loop: event.target.checked })}
            data-testid={`${testId}-loop`}
          />
          {t('testData.loop')}
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={source.random_order}
            onChange={(event) => set({ random_order: event.target.checked })}
            data-testid={`${testId}-random`}
          />
          {t('testData.randomOrder')}
        </label>
      </div>
      {!source.loop && <p className="text-[13px] text-muted-foreground">{t('testData.loopOff')}</p>}
    </li>
  );
}
