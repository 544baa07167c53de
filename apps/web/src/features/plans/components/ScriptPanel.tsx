import { MAX_TEXT_CHARS, type Tool } from '@aqa/plan';
import {
  Check,
  Copy,
  Download,
  FileCode2,
  PencilLine,
  RotateCcw,
  ShieldCheck,
  TriangleAlert,
} from 'lucide-react';
import { useState } from 'react';
import { CodeEditor, type CodeLanguage } from '@/components/code-editor/code-editor';
import { useConfirm } from '@/components/confirm-dialog';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import type { ScriptPreview } from '../hooks/useScriptPreview';
import { toolLabel } from '../model/plan-form';

/** docs/reference/01-authoring.md §9: the script panel shows 16 rows by default. */
export const SCRIPT_ROWS = 16;

/** The editor's colouring by tool: Taurus writes YAML; the others are shown as plain text. */
const SCRIPT_LANGUAGES: Record<Tool, CodeLanguage> = {
  jmeter: 'text',
  k6: 'text',
  locust: 'text',
  taurus: 'yaml',
  soapui: 'text',
};

/** "urls[2].extractType" → "API 3 · extractType". */
function warningField(field: string, apiLabel: (number: number) => string): string {
  const match = /^urls\[(\d+)\]\.?(.*)$/.exec(field);
  if (!match) return field;
  const label = apiLabel(Number(match[1]) + 1);
  return match[2] ? `${label} · ${match[2]}` : label;
}

export function ScriptPanel({
  script,
  tool,
  validating,
  disabled,
  onValidate,
  onCopy,
  onDownload,
  generateLabel,
  className,
}: {
  script: ScriptPreview;
  tool: Tool;
  validating: boolean;
  disabled: boolean;
  onValidate: () => void;
  onCopy: () => void;
  onDownload: () => void;
  /** The label of the screen's generate button, which the empty panel tells the user to press. */
  generateLabel: string;
  className?: string;
}) {
  const t = useT();
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const hasScript = script.script !== '';

  return (
    <Card className={cn('flex min-w-0 flex-col', className)} data-testid="script-panel">
      <CardHeader className="gap-3 p-4 pb-3 sm:p-6 sm:pb-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle as="h2" className="flex items-center gap-2">
            <FileCode2 aria-hidden className="size-4 text-muted-foreground" />
            {t('plans.scriptTitle')}
          </CardTitle>
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge variant="outline" data-testid="script-tool">
              {toolLabel(tool)}
            </Badge>
            {script.mode === 'live' && hasScript && (
              <Badge variant="default" data-testid="script-mode">
                {t('plans.scriptLive')}
              </Badge>
            )}
            {script.mode === 'edited' && (
              <Badge variant="secondary" data-testid="script-mode">
                <PencilLine aria-hidden />
                {t('plans.scriptEdited')}
              </Badge>
            )}
          </div>
        </div>
        {hasScript && (
          <p className="truncate font-mono text-xs text-muted-foreground" data-testid="script-filename">
            {script.filename}
          </p>
        )}
        <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
          <Button
            variant="outline"
            size="sm"
            aria-pressed={editing}
            disabled={!hasScript || disabled}
            onClick={() => setEditing((value) => !value)}
            className={cn(editing && 'border-primary/50 bg-accent text-accent-foreground hover:bg-accent')}
            data-testid="script-edit-toggle"
          >
            {editing ? <Check /> : <PencilLine />}
            {t('plans.editScript')}
          </Button>
          {script.mode === 'edited' && (
            <Button
              variant="ghost"
              size="sm"
              disabled={disabled}
              onClick={() => {
                const question = {
                  message: t('plans.confirmRegenerate'),
                  confirmLabel: t('plans.confirmRegenerateAction'),
                  destructive: true,
                };
                void confirm(question).then((confirmed) => {
                  if (!confirmed) return;
                  setEditing(false);
                  script.setMode('live');
                });
              }}
              data-testid="script-regenerate"
            >
              <RotateCcw />
              {t('plans.regenerate')}
            </Button>
          )}
          <Button
            variant="outline"
            size="sm"
            disabled={!hasScript || validating || disabled}
            onClick={onValidate}
            className="sm:ml-auto"
            data-testid="script-validate"
          >
            {validating ? <Spinner /> : <ShieldCheck />}
            {validating ? t('plans.validating') : t('plans.validateScript')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!hasScript}
            onClick={onCopy}
            data-testid="script-copy"
          >
            <Copy />
            {t('plans.copy')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!hasScript}
            onClick={onDownload}
            data-testid="script-download"
          >
            <Download />
            {t('plans.download')}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3 px-4 pb-4 sm:px-6 sm:pb-6">
        <CodeEditor
          aria-label={t('plans.scriptLabel', { tool: toolLabel(tool) })}
          rows={SCRIPT_ROWS}
          readOnly={!editing}
          value={script.script}
          placeholder={t('plans.scriptPlaceholder')}
          language={SCRIPT_LANGUAGES[tool]}
          maxLength={MAX_TEXT_CHARS}
          onChange={(text) => script.edit(text)}
          testId="script-text"
        />
        {!hasScript && (
          <p className="text-[13px] leading-5 text-muted-foreground" data-testid="script-empty">
            {t('plans.scriptEmptyHint', { button: generateLabel })}
          </p>
        )}
        {script.stale && (
          <Alert variant="warning" data-testid="script-stale">
            {t('plans.scriptStale')}
          </Alert>
        )}
        {script.mode === 'edited' && (
          <p className="text-[13px] leading-5 text-muted-foreground">{t('plans.scriptEditedNote')}</p>
        )}
        {script.warnings.length > 0 && (
          <section
            className="space-y-2 rounded-lg border border-warning/25 bg-warning-soft px-3 py-2.5"
            data-testid="script-warnings"
          >
            <h3 className="flex items-center gap-2 text-[13px] font-semibold text-warning-text">
              <TriangleAlert aria-hidden className="size-4" />
              {t('plans.warningsTitle', { tool: toolLabel(tool) })}
            </h3>
            <ul className="space-y-1.5 text-[13px] leading-5">
              {script.warnings.map((warning, index) => (
                <li key={`${warning.field}-${index}`} className="text-foreground">
                  <span className="font-mono text-xs font-medium text-warning-text">
                    {warningField(warning.field, (number) => t('plans.apiLabel', { number }))}
                  </span>{' '}
                  — {warning.message}
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
