import type { TaurusDataSource } from '@aqa/converters';
import { FileSpreadsheet, Paperclip, X } from 'lucide-react';
import { useMemo, type Dispatch } from 'react';
import { useNotice } from '@/components/notices';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useT } from '@/i18n';
import { FilePickButton } from '@/components/file-pick-button';
import type { ScriptFormAction } from '../model/script-form';

/**
 * The CSV files a script's `data-sources` name (docs/reference/02-running.md §3 "Taurus scripts"): the
 * reader reads no files, so each is attached here by the name the script uses and saved with the plan as
 * its data_files; run-test refuses a script whose data file is missing.
 */
export function DataFilesCard({
  sources,
  files,
  dispatch,
  disabled,
}: {
  sources: TaurusDataSource[];
  files: Readonly<Record<string, string>>;
  dispatch: Dispatch<ScriptFormAction>;
  disabled: boolean;
}) {
  const t = useT();
  return (
    <Card className="space-y-3 p-4 sm:p-5" data-testid="data-files">
      <div className="space-y-0.5">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <FileSpreadsheet aria-hidden className="size-4 text-muted-foreground" />
          {t('functional.script.dataTitle')}
        </h2>
        <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.script.dataText')}</p>
      </div>
      <ul className="divide-y divide-border rounded-lg border border-border">
        {sources.map((source, index) => (
          <DataFileRow
            key={`${source.path}-${index}`}
            source={source}
            text={files[source.path]}
            dispatch={dispatch}
            disabled={disabled}
            testId={`data-file-${index}`}
          />
        ))}
      </ul>
    </Card>
  );
}

function DataFileRow({
  source,
  text,
  dispatch,
  disabled,
  testId,
}: {
  source: TaurusDataSource;
  text: string | undefined;
  dispatch: Dispatch<ScriptFormAction>;
  disabled: boolean;
  testId: string;
}) {
  const t = useT();
  const notice = useNotice();
  // Counted once per file, not on every keystroke in the script above (a data file may be large).
  const rows = useMemo(
    () => (text === undefined ? 0 : text.split(/\r?\n/).filter((line) => line.trim() !== '').length),
    [text],
  );

  const onFile = async (file: File) => {
    try {
      dispatch({ type: 'setDataFile', name: source.path, text: await file.text() });
    } catch (error) {
      notice.error(t('functional.script.dataFailed', { message: (error as Error).message }));
    }
  };

  return (
    <li className="flex flex-wrap items-center gap-3 px-3 py-2.5" data-testid={testId}>
      <span className="min-w-0 flex-1 font-mono text-[13px] break-all">{source.path}</span>
      {text === undefined ? (
        <Badge variant="outline" className="text-warning-text" data-testid={`${testId}-state`}>
          {t('functional.script.dataMissing')}
        </Badge>
      ) : (
        <Badge variant="secondary" className="num" data-testid={`${testId}-state`}>
          {t('functional.script.dataRows', { count: rows })}
        </Badge>
      )}
      <FilePickButton
        accept=".csv,.txt,text/csv,text/plain"
        onFile={(file) => void onFile(file)}
        inputTestId={`${testId}-input`}
        variant="outline"
        size="sm"
        disabled={disabled}
      >
        <Paperclip />
        {text === undefined ? t('functional.script.dataAttach') : t('functional.script.dataReplace')}
      </FilePickButton>
      {text !== undefined && (
        <Button
          variant="ghost"
          size="icon-sm"
          disabled={disabled}
          aria-label={t('functional.script.dataRemove', { name: source.path })}
          onClick={() => dispatch({ type: 'setDataFile', name: source.path, text: null })}
          data-testid={`${testId}-remove`}
        >
          <X />
        </Button>
      )}
    </li>
  );
}
