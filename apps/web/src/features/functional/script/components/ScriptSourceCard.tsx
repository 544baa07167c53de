import { FileUp, Sparkles } from 'lucide-react';
import { useRef, useState, type Dispatch } from 'react';
import { useNotice } from '@/components/notices';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { callErrorMessage, NativeSelect } from '@/features/plans';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';
import { ACCEPTED_TYPES, FILE_KINDS, parseFileToScript, type FileKind } from '../model/parse-file';
import { SAMPLE_SCRIPTS, type ScriptKind } from '../model/samples';
import type { ScriptForm, ScriptFormAction } from '../model/script-form';
import { readScript, warningsByLine, type ScriptRead } from '../model/script-read';
import { FilePickButton } from '../../editor/components/FilePickButton';
import { ScriptCodeEditor } from './ScriptCodeEditor';

const KIND_LABELS: Record<FileKind, MessageKey> = {
  postman: 'functional.script.kind.postman',
  swagger: 'functional.script.kind.swagger',
  csv: 'functional.script.kind.csv',
  excel: 'functional.script.kind.excel',
};

/**
 * 'Taurus Script Configuration' (docs/reference/02-running.md §2 "Functional Script Input screen"): Load
 * Sample, Load File with its file type choice (the file parse of §7 turns a Postman, Swagger/OpenAPI, CSV
 * or Excel file into a script), the 20-row 'Script Content (YAML) *' editor, and what the Taurus reader
 * says about the script: its warnings against their lines, or why it refuses it.
 */
export function ScriptSourceCard({
  kind,
  form,
  read,
  dispatch,
  disabled,
  error,
}: {
  /** API (Taurus) now; the UI (Selenium) variant belongs to the UI test screen. */
  kind: ScriptKind;
  form: ScriptForm;
  read: ScriptRead;
  dispatch: Dispatch<ScriptFormAction>;
  disabled: boolean;
  /** 'Script content is required' once Save or Start was pressed without one. */
  error: string | undefined;
}) {
  const t = useT();
  const notice = useNotice();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [fileKind, setFileKind] = useState<FileKind>('postman');
  const [parsing, setParsing] = useState(false);
  const sample = SAMPLE_SCRIPTS[kind];
  const warningLines = warningsByLine(read);
  const errorLine = read.ok ? undefined : read.line;

  /** A new script from a sample or a file: its execution settings fill the form. */
  const loadScript = (script: string) => {
    dispatch({ type: 'setScript', script });
    const next = readScript(script);
    if (next.ok) dispatch({ type: 'applyExecution', execution: next.execution });
  };

  const onFile = async (file: File) => {
    setParsing(true);
    try {
      const parsed = await parseFileToScript(file, fileKind);
      if (parsed.script.trim() === '') {
        notice.error(t('functional.script.noScript'));
        return;
      }
      loadScript(parsed.script);
      notice.success(
        parsed.apiCount > 0
          ? t('functional.script.parsedApis', { count: parsed.apiCount })
          : t('functional.script.parsedScript'),
      );
    } catch (caught) {
      notice.error(t('functional.script.parseFailed', { message: callErrorMessage(caught, t) }));
    } finally {
      setParsing(false);
    }
  };

  const goToLine = (line: number) => {
    const area = textarea.current;
    if (!area) return;
    const lines = area.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
    area.focus();
    area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
  };

  return (
    <Card className="space-y-4 p-4 sm:p-5" data-testid="script-source">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="space-y-0.5">
          <h2 className="text-base font-semibold">
            {kind === 'api' ? t('functional.script.taurusTitle') : t('functional.script.seleniumTitle')}
          </h2>
          <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.script.sourceText')}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {sample !== undefined && (
            <Button
              variant="outline"
              disabled={disabled}
              onClick={() => loadScript(sample)}
              data-testid="load-sample"
            >
              <Sparkles />
              {t('functional.script.loadSample')}
            </Button>
          )}
          <NativeSelect
            aria-label={t('functional.script.fileType')}
            value={fileKind}
            disabled={disabled || parsing}
            onChange={(event) => {
              const next = FILE_KINDS.find((value) => value === event.target.value);
              if (next) setFileKind(next);
            }}
            className="w-auto"
            data-testid="file-type"
          >
            {FILE_KINDS.map((value) => (
              <option key={value} value={value}>
                {t(KIND_LABELS[value])}
              </option>
            ))}
          </NativeSelect>
          <FilePickButton
            accept={ACCEPTED_TYPES[fileKind]}
            onFile={(file) => void onFile(file)}
            inputTestId="script-file"
            variant="outline"
            disabled={disabled || parsing}
            data-testid="load-file"
          >
            {parsing ? <Spinner /> : <FileUp />}
            {parsing ? t('functional.script.parsing') : t('functional.script.loadFile')}
          </FilePickButton>
        </div>
      </div>

      <div className="space-y-1.5">
        <p className="text-sm font-medium">{t('functional.script.scriptContent')}</p>
        <ScriptCodeEditor
          value={form.script}
          onChange={(script) => dispatch({ type: 'setScript', script })}
          warningLines={warningLines}
          errorLine={errorLine}
          disabled={disabled}
          describedBy="script-read-state"
          textareaRef={textarea}
        />
        {error && (
          <p className="text-[13px] leading-5 text-destructive" data-testid="script-error">
            {error}
          </p>
        )}
      </div>

      <div id="script-read-state" className="space-y-2">
        {!read.ok && read.message !== '' && (
          <Alert variant="destructive" title={t('functional.script.refused')} data-testid="script-refused">
            {read.line !== undefined
              ? t('functional.script.atLine', { line: read.line, message: read.message })
              : read.message}
          </Alert>
        )}
        {read.ok && (
          <p className="text-[13px] text-muted-foreground" data-testid="script-read-summary">
            {t('functional.script.readSummary', { count: read.apis.length, warnings: read.warnings.length })}
          </p>
        )}
        {read.warnings.length > 0 && (
          <section aria-labelledby="script-warnings-title" data-testid="script-warnings">
            <h3 id="script-warnings-title" className="mb-1.5 text-sm font-semibold">
              {t('functional.script.warningsTitle', { count: read.warnings.length })}
            </h3>
            <ul className="divide-y divide-border rounded-lg border border-warning/25 bg-warning-soft/40">
              {read.warnings.map((warning, index) => (
                <li
                  key={`${warning.path}-${index}`}
                  className="flex gap-3 px-3 py-2 text-[13px]"
                  data-testid={`script-warning-${index}`}
                >
                  <button
                    type="button"
                    disabled={warning.line === undefined}
                    onClick={() => warning.line !== undefined && goToLine(warning.line)}
                    className="num shrink-0 font-mono text-warning-text underline-offset-2 hover:underline disabled:no-underline"
                    data-testid={`script-warning-${index}-line`}
                  >
                    {warning.line !== undefined ? t('functional.script.line', { line: warning.line }) : '—'}
                  </button>
                  <div className="min-w-0 space-y-0.5">
                    <p className="font-mono break-all">{warning.path}</p>
                    <p>{warning.message}</p>
                  </div>
                  <span
                    className={cn(
                      'ml-auto shrink-0 self-start rounded px-1.5 py-0.5 text-[12px] font-medium',
                      warning.effect === 'refused' ? 'bg-destructive-soft text-destructive-text' : 'bg-muted',
                    )}
                  >
                    {t(
                      warning.effect === 'refused'
                        ? 'functional.script.refusedEffect'
                        : 'functional.script.skippedEffect',
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </Card>
  );
}
