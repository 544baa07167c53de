import type { UnknownSeleniumAction } from '@aqa/converters';
import { FileUp, Sparkles } from 'lucide-react';
import { MAX_TEXT_CHARS } from '@aqa/plan';
import { useEffect, useRef, useState, type Dispatch } from 'react';
import { Link } from 'react-router';
import type { CodeEditorHandle } from '@/components/code-editor/code-editor';
import { useNotice } from '@/components/notices';
import { useShownItems } from '@/components/show-more';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { NativeSelect } from '@/components/ui/native-select';
import { useI18n, useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';
import { ACCEPTED_TYPES, FILE_KINDS, parseFileToScript, type FileKind } from '../model/parse-file';
import { SAMPLE_SCRIPTS } from '../model/samples';
import type { ScriptForm, ScriptFormAction, ScriptFramework } from '../model/script-form';
import { scriptMarks, type ScriptRead } from '../model/script-read';
import type { SeleniumRead } from '../model/selenium-read';
import { FilePickButton } from '@/components/file-pick-button';
import { ScriptCodeEditor } from './ScriptCodeEditor';
import { callErrorMessage } from '@/features/call-editor';

const KIND_LABELS: Record<FileKind, MessageKey> = {
  postman: 'functional.script.kind.postman',
  swagger: 'functional.script.kind.swagger',
  csv: 'functional.script.kind.csv',
  excel: 'functional.script.kind.excel',
};

const NO_UNKNOWN: UnknownSeleniumAction[] = [];

/** A Selenium script is read from its own file as it is: the file parse makes API scripts only. */
const SELENIUM_FILE_TYPES = '.yml,.yaml';

/**
 * 'Taurus Script Configuration' or 'Selenium Script Configuration' (docs/reference/02-running.md §2
 * "Functional Script Input screen"), by the framework chosen here: Load Sample (the framework's example),
 * Load File (for Taurus with its file type choice: the file parse of §7 turns a Postman, Swagger/OpenAPI,
 * CSV or Excel file into a script; for Selenium a YAML script file as it is), the 20-row 'Script Content
 * (YAML) *' editor, and what the framework's reader says about the script: its warnings against their
 * lines, or why it refuses it (for Selenium, each action it cannot run with its line).
 */
export function ScriptSourceCard({
  form,
  read,
  readFor,
  dispatch,
  disabled,
  error,
}: {
  form: ScriptForm;
  /** The reader's answer for the form's framework. */
  read: ScriptRead | SeleniumRead;
  /** The text that answer was read from. */
  readFor: string;
  dispatch: Dispatch<ScriptFormAction>;
  disabled: boolean;
  /** 'Script content is required' once Save or Start was pressed without one. */
  error: string | undefined;
}) {
  const { t, locale } = useI18n();
  const notice = useNotice();
  const editor = useRef<CodeEditorHandle>(null);
  const [fileKind, setFileKind] = useState<FileKind>('postman');
  const [parsing, setParsing] = useState(false);
  /** A script just loaded from a sample or a file, whose execution settings fill the form once read. */
  const loaded = useRef<string | null>(null);
  const { framework } = form;
  const selenium = framework === 'selenium';
  const marks = scriptMarks(read);
  // Long lists are drawn a page at a time (useShownItems): a pasted script may warn on thousands of lines.
  const warnings = useShownItems(read.warnings);
  const unknownItems = useShownItems('unknown' in read ? read.unknown : NO_UNKNOWN);

  useEffect(() => {
    if (loaded.current === null || readFor !== loaded.current) return;
    loaded.current = null;
    if (read.ok) dispatch({ type: 'applyExecution', execution: read.execution });
  }, [read, readFor, dispatch]);

  /** A new script from a sample or a file: its execution settings fill the form once it is read. */
  const loadScript = (script: string) => {
    dispatch({ type: 'setScript', script });
    loaded.current = script;
  };

  /** A file's text, or a notice naming the limit when it is longer than a script may be. */
  const withinLimit = (name: string, script: string) => {
    if (script.length <= MAX_TEXT_CHARS) return true;
    notice.error(
      t('codeEditor.fileTooLong', {
        name,
        length: script.length.toLocaleString(locale),
        max: MAX_TEXT_CHARS.toLocaleString(locale),
      }),
    );
    return false;
  };

  const onSeleniumFile = async (file: File) => {
    try {
      const script = await file.text();
      if (!withinLimit(file.name, script)) return;
      loadScript(script);
      notice.success(t('functional.selenium.fileLoaded', { name: file.name }));
    } catch (caught) {
      notice.error(
        t('functional.selenium.fileUnreadable', { name: file.name, message: callErrorMessage(caught, t) }),
      );
    }
  };

  const onFile = async (file: File) => {
    setParsing(true);
    try {
      const parsed = await parseFileToScript(file, fileKind);
      if (parsed.script.trim() === '') {
        notice.error(t('functional.script.noScript'));
        return;
      }
      if (!withinLimit(file.name, parsed.script)) return;
      loadScript(parsed.script);
      const said =
        parsed.apiCount > 0
          ? t('functional.script.parsedApis', { count: parsed.apiCount })
          : t('functional.script.parsedScript');
      // A collection's tests do not go into a Taurus script: say where they run.
      notice.success(
        parsed.postmanTests
          ? `${said} ${t('functional.script.postmanTestsLeft', { count: parsed.postmanTests })}`
          : said,
      );
    } catch (caught) {
      notice.error(t('functional.script.parseFailed', { message: callErrorMessage(caught, t) }));
    } finally {
      setParsing(false);
    }
  };

  const goToLine = (line: number) => editor.current?.selectLine(line);

  return (
    <Card className="space-y-4 p-4 sm:p-5" data-testid="script-source">
      <FrameworkChoice
        value={framework}
        disabled={disabled}
        onChange={(next) => dispatch({ type: 'setFramework', framework: next })}
      />
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="space-y-0.5">
          <h2 className="text-base font-semibold" data-testid="script-source-title">
            {selenium ? t('functional.script.seleniumTitle') : t('functional.script.taurusTitle')}
          </h2>
          <p className="text-[13px] leading-5 text-muted-foreground">
            {selenium ? t('functional.selenium.sourceText') : t('functional.script.sourceText')}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 lg:shrink-0">
          <Button
            variant="outline"
            disabled={disabled}
            onClick={() => loadScript(SAMPLE_SCRIPTS[framework])}
            data-testid="load-sample"
          >
            <Sparkles />
            {t('functional.script.loadSample')}
          </Button>
          {selenium ? (
            <FilePickButton
              accept={SELENIUM_FILE_TYPES}
              onFile={(file) => void onSeleniumFile(file)}
              inputTestId="script-file"
              variant="outline"
              disabled={disabled}
              title={t('functional.selenium.fileHint')}
              data-testid="load-file"
            >
              <FileUp />
              {t('functional.script.loadFile')}
            </FilePickButton>
          ) : (
            <>
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
            </>
          )}
        </div>
      </div>

      {!selenium && fileKind === 'postman' && (
        <p className="text-[13px] leading-5 text-muted-foreground" data-testid="postman-hint">
          {t('functional.script.postmanHint')}{' '}
          <Link
            to="/functional-test/url-input"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            {t('functional.script.postmanHintLink')}
          </Link>
        </p>
      )}

      <div className="space-y-1.5">
        <p className="text-sm font-medium">{t('functional.script.scriptContent')}</p>
        <ScriptCodeEditor
          value={form.script}
          onChange={(script) => dispatch({ type: 'setScript', script })}
          marks={marks}
          marksFor={readFor}
          disabled={disabled}
          describedBy="script-read-state"
          editorRef={editor}
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
            {/* A YAML error already says "at line 4"; other refusals get their line in front. */}
            {read.line !== undefined && !read.message.includes(`line ${read.line}`)
              ? t('functional.script.atLine', { line: read.line, message: read.message })
              : read.message}
          </Alert>
        )}
        {!read.ok && 'unknown' in read && read.unknown.length > 0 && (
          <section aria-labelledby="script-unknown-title" data-testid="script-unknown">
            <h3 id="script-unknown-title" className="mb-1.5 text-sm font-semibold">
              {t('functional.selenium.unknownTitle', { count: read.unknown.length })}
            </h3>
            <ul className="divide-y divide-border rounded-lg border border-destructive/25 bg-destructive-soft/40">
              {unknownItems.shown.map((unknown, index) => (
                <li
                  key={`${unknown.path}-${index}`}
                  className="flex gap-3 px-3 py-2 text-[13px]"
                  data-testid={`script-unknown-${index}`}
                >
                  <LineButton line={unknown.line} onGo={goToLine} tone="text-destructive-text" />
                  <div className="min-w-0 space-y-0.5">
                    <p className="break-all font-mono font-semibold">{unknown.action}</p>
                    <p className="break-words">{unknown.message}</p>
                  </div>
                </li>
              ))}
            </ul>
            {unknownItems.more}
          </section>
        )}
        {read.ok && (
          <p className="text-[13px] text-muted-foreground" data-testid="script-read-summary">
            {'pages' in read
              ? t('functional.selenium.readSummary', {
                  pages: read.pages.length,
                  steps: read.pages.reduce((sum, page) => sum + page.actions.length, 0),
                  warnings: read.warnings.length,
                })
              : t('functional.script.readSummary', {
                  count: read.apis.length,
                  warnings: read.warnings.length,
                })}
          </p>
        )}
        {read.warnings.length > 0 && (
          <section aria-labelledby="script-warnings-title" data-testid="script-warnings">
            <h3 id="script-warnings-title" className="mb-1.5 text-sm font-semibold">
              {t('functional.script.warningsTitle', { count: read.warnings.length })}
            </h3>
            <ul className="divide-y divide-border rounded-lg border border-warning/25 bg-warning-soft/40">
              {warnings.shown.map((warning, index) => (
                <li
                  key={`${warning.path}-${index}`}
                  className="flex gap-3 px-3 py-2 text-[13px]"
                  data-testid={`script-warning-${index}`}
                >
                  <LineButton
                    line={warning.line}
                    onGo={goToLine}
                    tone="text-warning-text"
                    data-testid={`script-warning-${index}-line`}
                  />
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
            {warnings.more}
          </section>
        )}
      </div>
    </Card>
  );
}

/** A problem's line, which selects that line in the editor; a dash when the reader gave none. */
function LineButton({
  line,
  onGo,
  tone,
  'data-testid': testId,
}: {
  line: number | undefined;
  onGo: (line: number) => void;
  tone: string;
  'data-testid'?: string;
}) {
  const t = useT();
  return (
    <button
      type="button"
      disabled={line === undefined}
      onClick={() => line !== undefined && onGo(line)}
      className={cn('num shrink-0 font-mono underline-offset-2 hover:underline disabled:no-underline', tone)}
      data-testid={testId}
    >
      {line !== undefined ? t('functional.script.line', { line }) : '—'}
    </button>
  );
}

const FRAMEWORKS: { value: ScriptFramework; label: MessageKey }[] = [
  { value: 'taurus', label: 'functional.selenium.framework.taurus' },
  { value: 'selenium', label: 'functional.selenium.framework.selenium' },
];

/** Taurus (API calls) or Selenium (browser steps): radio buttons drawn as one segmented control. */
function FrameworkChoice({
  value,
  disabled,
  onChange,
}: {
  value: ScriptFramework;
  disabled: boolean;
  onChange: (framework: ScriptFramework) => void;
}) {
  const t = useT();
  return (
    <fieldset
      disabled={disabled}
      className="flex flex-wrap items-center gap-3"
      data-testid="script-framework"
    >
      <legend className="float-left mr-1 text-sm font-medium">{t('functional.selenium.framework')}</legend>
      <div className="inline-flex rounded-lg border border-border bg-muted/50 p-0.5">
        {FRAMEWORKS.map((option) => (
          <label
            key={option.value}
            className={cn(
              'cursor-pointer rounded-md px-3 py-1 text-sm font-medium text-muted-foreground transition-colors',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              value === option.value && 'bg-background text-foreground shadow-sm',
            )}
          >
            <input
              type="radio"
              name="script-framework"
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
              data-testid={`framework-${option.value}`}
            />
            {t(option.label)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
