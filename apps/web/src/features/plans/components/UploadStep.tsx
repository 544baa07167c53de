import { FileUp, Link2, Terminal, Upload, X } from 'lucide-react';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { useT, type Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { isAbortError } from '@/lib/api';
import { cn } from '@/lib/utils';
import {
  ACCEPTED_EXTENSIONS,
  checkUpload,
  entriesFromSteps,
  isFileKind,
  megabytes,
  UPLOAD_KINDS,
  type UploadKind,
  type UploadProblem,
} from '../model/upload-source';
import { importOperations, PICK_ABOVE, type ImportOperation } from '../model/operation-choice';
import {
  parseUpload,
  type ImportedSettings,
  type ImportInfo,
  type ImportWarning,
  type NeededValue,
} from '../queries/import-api';
import { useUploadLimit } from '../hooks/useUploadLimit';
import { OperationPicker } from './OperationPicker';
import { TableLayoutHelp } from './TableLayoutHelp';
import { type EntryForm, callErrorMessage } from '@/features/call-editor';

/** What step 1 hands to step 2. */
export interface ImportedApis {
  /** What was imported: a file of this kind, or a pasted cURL command. */
  kind: UploadKind;
  entries: EntryForm[];
  warnings: ImportWarning[];
  info: ImportInfo;
  /** The {{variables}} the calls send without a value, for the summary's "needs a value". */
  needsValue: NeededValue[];
  /** The file name, or "cURL command". */
  source: string;
  /** A Taurus configuration's load and data (docs/adr/0027-load-profiles.md "Importers"). */
  settings?: ImportedSettings | undefined;
}

const KIND_LABELS: Record<UploadKind, MessageKey> = {
  swagger: 'scriptInput.kind.swagger',
  postman: 'scriptInput.kind.postman',
  har: 'scriptInput.kind.har',
  taurus: 'scriptInput.kind.taurus',
  csv: 'scriptInput.kind.csv',
  excel: 'scriptInput.kind.excel',
  curl: 'scriptInput.kind.curl',
};

function problemText(problem: UploadProblem, t: Translate): string {
  switch (problem.problem) {
    case 'noFile':
      // docs/reference/01-authoring.md §5 names the two kinds it has; the others say which file is missing the same way.
      return problem.kind === 'swagger'
        ? t('scriptInput.error.noSwaggerFile')
        : problem.kind === 'postman'
          ? t('scriptInput.error.noPostmanFile')
          : t('scriptInput.error.noFile', { kind: t(KIND_LABELS[problem.kind]) });
    case 'noCommand':
      return t('scriptInput.error.noCommand');
    case 'wrongType':
      return t('scriptInput.error.wrongType', {
        file: problem.file,
        kind: t(KIND_LABELS[problem.kind]),
        extensions: ACCEPTED_EXTENSIONS[problem.kind].join(', '),
      });
    case 'empty':
      return t('scriptInput.error.emptyFile', { file: problem.file });
    case 'tooLarge':
      return t('scriptInput.error.tooLarge', { file: problem.file, max: megabytes(problem.maxBytes) });
    case 'baseUrl':
      return t('scriptInput.error.baseUrl');
  }
}

/** The variables the entries send as {{name}}, each with the calls among them that send it. */
function neededBy(entries: EntryForm[], needed: readonly NeededValue[]): NeededValue[] {
  const sent = JSON.stringify(entries);
  return needed.filter((v) => sent.includes(`{{${v.name}}}`));
}

/** The import with only the chosen operations, and the variables those still need. */
function choose(
  imported: ImportedApis,
  operations: readonly ImportOperation[],
  indexes: number[],
): ImportedApis {
  const entries = indexes.flatMap((index) => imported.entries[index] ?? []);
  const calls = new Set(
    indexes.flatMap((index) => {
      const operation = operations[index];
      return operation ? [`${operation.method} ${operation.path}`] : [];
    }),
  );
  const needsValue = neededBy(entries, imported.needsValue).map((v) => {
    const kept = v.calls.filter((call) => calls.has(call));
    return kept.length > 0 ? { ...v, calls: kept } : v;
  });
  return { ...imported, entries, needsValue };
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Step 1 of the script-upload screen (docs/reference/01-authoring.md §2): the kind of file, the file (or a pasted cURL command),
 * the optional base URL, and "Proceed with Script" ("Processing..." while the server parses it). Problems
 * are shown above the button and leave everything as chosen, to fix and try again.
 */
export function UploadStep({
  onImported,
  replacing,
  onCancel,
}: {
  onImported: (imported: ImportedApis) => void;
  /** APIs in the plan now, which an import replaces (0 for a new plan). */
  replacing: number;
  /** Back to the plan without importing. */
  onCancel?: (() => void) | undefined;
}) {
  const t = useT();
  const [kind, setKind] = useState<UploadKind>('swagger');
  const [file, setFile] = useState<File | null>(null);
  /** A Taurus configuration's CSV files, sent beside it. */
  const [dataFiles, setDataFiles] = useState<File[]>([]);
  const [command, setCommand] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const maxFileBytes = useUploadLimit();
  const fileInput = useRef<HTMLInputElement>(null);
  const pending = useRef<AbortController | null>(null);
  /** A large import waiting for the user to pick its operations (OperationPicker). */
  const [choosing, setChoosing] = useState<{
    imported: ImportedApis;
    operations: ImportOperation[];
  } | null>(null);

  useEffect(() => () => pending.current?.abort(), []);

  const chooseKind = (next: UploadKind) => {
    setKind(next);
    setError(null);
    if (
      file &&
      isFileKind(next) &&
      !ACCEPTED_EXTENSIONS[next].some((ext) => file.name.toLowerCase().endsWith(ext))
    ) {
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    setError(null);
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    if (processing) return;
    const dropped = event.dataTransfer.files[0];
    if (dropped) chooseFile(dropped);
  };

  const proceed = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing) return;
    const problem = checkUpload({ kind, file, command, baseUrl, maxFileBytes });
    if (problem) {
      setError(problemText(problem, t));
      return;
    }
    setError(null);
    setProcessing(true);
    const controller = new AbortController();
    pending.current = controller;
    try {
      const source = kind === 'curl' ? t('scriptInput.curlSource') : (file?.name ?? '');
      const answer =
        kind === 'curl'
          ? await parseUpload({ kind, command }, controller.signal)
          : await parseUpload({ kind, file: file as File, baseUrl, dataFiles }, controller.signal);
      const { entries, unreadable } = entriesFromSteps(answer.steps, {
        // The OpenAPI importer put the base URL in place of the servers already.
        baseUrl: kind === 'swagger' ? undefined : baseUrl,
      });
      if (entries.length === 0) {
        setError(t('scriptInput.error.noApis', { file: source }));
        return;
      }
      const warnings = [
        ...answer.warnings,
        ...unreadable.map(({ index, message }) => ({
          location: t('plans.apiLabel', { number: index + 1 }),
          message: t('scriptInput.unreadableStep', { message }),
        })),
      ];
      // A base URL given here replaces a leading {{variable}} of the URLs, which then needs no value.
      const needsValue = neededBy(entries, answer.needs_value);
      const imported: ImportedApis = {
        kind,
        entries,
        warnings,
        info: answer.info,
        needsValue,
        source,
        ...('settings' in answer ? { settings: answer.settings } : {}),
      };
      if (entries.length > PICK_ABOVE) {
        // The server's `apis` run parallel to its steps; unreadable steps have no entry.
        const skipped = new Set(unreadable.map(({ index }) => index));
        const apis = answer.apis?.filter((_, index) => !skipped.has(index));
        setChoosing({ imported, operations: importOperations(entries, apis) });
        return;
      }
      onImported(imported);
    } catch (failure) {
      if (controller.signal.aborted || isAbortError(failure)) return;
      setError(t('scriptInput.parseFailed', { message: callErrorMessage(failure, t) }));
    } finally {
      if (pending.current === controller) pending.current = null;
      setProcessing(false);
    }
  };

  const fileKind = isFileKind(kind) ? kind : null;
  const accept = fileKind ? ACCEPTED_EXTENSIONS[fileKind].join(',') : undefined;

  if (choosing) {
    return (
      <OperationPicker
        operations={choosing.operations}
        source={choosing.imported.source}
        onBack={() => setChoosing(null)}
        onImport={(indexes) => onImported(choose(choosing.imported, choosing.operations, indexes))}
      />
    );
  }

  return (
    <Card data-testid="upload-step">
      <CardHeader className="p-4 pb-2 sm:p-6 sm:pb-2">
        <CardTitle as="h2" className="flex items-center gap-2">
          <FileUp aria-hidden className="size-4 text-muted-foreground" />
          {t('scriptInput.uploadTitle')}
        </CardTitle>
        <CardDescription>{t('scriptInput.uploadText')}</CardDescription>
      </CardHeader>
      <CardContent className="px-4 pb-4 sm:px-6 sm:pb-6">
        <form onSubmit={(event) => void proceed(event)} className="space-y-5" noValidate>
          <fieldset disabled={processing} className="min-w-0 space-y-2">
            <legend className="mb-2 text-sm font-medium">{t('scriptInput.kindLabel')}</legend>
            <div className="grid grid-cols-1 gap-2 min-[480px]:grid-cols-2 lg:grid-cols-3">
              {UPLOAD_KINDS.map((option) => {
                const checked = option === kind;
                const extensions = isFileKind(option)
                  ? ACCEPTED_EXTENSIONS[option].join(', ')
                  : t('scriptInput.kindPaste');
                return (
                  <label
                    key={option}
                    className={cn(
                      'flex cursor-pointer items-start gap-3 rounded-lg border bg-card px-3 py-2.5 transition-colors',
                      'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                      checked ? 'border-primary/60 bg-accent' : 'border-border hover:bg-muted/60',
                    )}
                  >
                    <input
                      type="radio"
                      name="upload-kind"
                      value={option}
                      checked={checked}
                      onChange={() => chooseKind(option)}
                      aria-label={t(KIND_LABELS[option])}
                      aria-describedby={`upload-kind-${option}-extensions`}
                      className="mt-0.5 size-4 shrink-0 accent-primary"
                      data-testid={`upload-kind-${option}`}
                    />
                    <span className="min-w-0">
                      <span className="block text-sm font-medium leading-5">{t(KIND_LABELS[option])}</span>
                      <span
                        id={`upload-kind-${option}-extensions`}
                        className="block font-mono text-[12px] leading-5 text-muted-foreground"
                      >
                        {extensions}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>

          {fileKind ? (
            <div className="space-y-2">
              <label
                htmlFor="upload-file"
                onDragOver={(event) => {
                  event.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
                className={cn(
                  'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border border-dashed px-4 py-6 text-center transition-colors',
                  'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  dragging ? 'border-primary bg-accent' : 'border-input bg-muted/30 hover:bg-muted/60',
                  processing && 'pointer-events-none opacity-60',
                )}
                data-testid="upload-dropzone"
              >
                <Upload aria-hidden className="size-5 text-muted-foreground" />
                <span className="text-sm font-medium">
                  {file
                    ? t('scriptInput.replaceFile')
                    : t('scriptInput.chooseFile', { kind: t(KIND_LABELS[fileKind]) })}
                </span>
                <span className="text-[13px] text-muted-foreground">
                  {maxFileBytes === null
                    ? ACCEPTED_EXTENSIONS[fileKind].join(', ')
                    : t('scriptInput.fileHint', {
                        extensions: ACCEPTED_EXTENSIONS[fileKind].join(', '),
                        max: megabytes(maxFileBytes),
                      })}
                </span>
                <input
                  ref={fileInput}
                  id="upload-file"
                  type="file"
                  accept={accept}
                  disabled={processing}
                  onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
                  className="sr-only"
                  data-testid="upload-file"
                />
              </label>
              {file && (
                <div
                  className="flex items-center gap-2 rounded-lg border border-border bg-card px-3 py-2 text-sm"
                  data-testid="upload-chosen"
                >
                  <FileUp aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 flex-1 truncate font-medium">{file.name}</span>
                  <span className="num shrink-0 text-[13px] text-muted-foreground">
                    {formatSize(file.size)}
                  </span>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={t('scriptInput.clearFile')}
                    disabled={processing}
                    onClick={() => {
                      chooseFile(null);
                      if (fileInput.current) fileInput.current.value = '';
                    }}
                    data-testid="upload-clear"
                  >
                    <X />
                  </Button>
                </div>
              )}
            </div>
          ) : (
            <FormField id="upload-curl" label={t('scriptInput.curlLabel')} hint={t('scriptInput.curlHint')}>
              {(control) => (
                <Textarea
                  {...control}
                  rows={6}
                  value={command}
                  disabled={processing}
                  spellCheck={false}
                  placeholder={t('scriptInput.curlPlaceholder')}
                  onChange={(event) => {
                    setCommand(event.target.value);
                    setError(null);
                  }}
                  className="font-mono text-[13px]"
                  data-testid="upload-curl"
                />
              )}
            </FormField>
          )}

          {(kind === 'csv' || kind === 'excel') && <TableLayoutHelp />}

          {kind === 'taurus' && (
            <FormField
              id="upload-data-files"
              label={
                <span>
                  {t('scriptInput.taurusDataFiles')}{' '}
                  <span className="font-normal text-muted-foreground">({t('common.optional')})</span>
                </span>
              }
              hint={t('scriptInput.taurusDataFilesHint')}
            >
              {(control) => (
                <Input
                  {...control}
                  type="file"
                  multiple
                  accept=".csv,text/csv"
                  disabled={processing}
                  onChange={(event) => {
                    setDataFiles(Array.from(event.target.files ?? []));
                    setError(null);
                  }}
                  data-testid="upload-data-files"
                />
              )}
            </FormField>
          )}

          <FormField
            id="upload-base-url"
            label={
              <span className="inline-flex items-center gap-1.5">
                <Link2 aria-hidden className="size-3.5 text-muted-foreground" />
                {t('scriptInput.baseUrl')}
                <span className="font-normal text-muted-foreground">({t('common.optional')})</span>
              </span>
            }
            hint={
              kind === 'swagger' ? t('scriptInput.baseUrlHintSwagger') : t('scriptInput.baseUrlHintOther')
            }
          >
            {(control) => (
              <Input
                {...control}
                type="url"
                inputMode="url"
                value={baseUrl}
                disabled={processing}
                autoComplete="off"
                spellCheck={false}
                placeholder="http://localhost:8080/api"
                onChange={(event) => {
                  setBaseUrl(event.target.value);
                  setError(null);
                }}
                className="font-mono text-[13px]"
                data-testid="upload-base-url"
              />
            )}
          </FormField>

          {replacing > 0 && (
            <Alert variant="info" data-testid="upload-replacing">
              {t('scriptInput.replacing', { count: replacing })}
            </Alert>
          )}
          {error && (
            <Alert variant="destructive" data-testid="upload-error">
              <span className="whitespace-pre-line break-words">{error}</span>
            </Alert>
          )}

          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
            {onCancel && (
              <Button variant="ghost" onClick={onCancel} disabled={processing} data-testid="upload-cancel">
                {t('scriptInput.backToPlan')}
              </Button>
            )}
            <Button type="submit" disabled={processing} data-testid="upload-proceed">
              {processing ? <Spinner /> : kind === 'curl' ? <Terminal /> : <FileUp />}
              {processing ? t('scriptInput.processing') : t('scriptInput.proceed')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
