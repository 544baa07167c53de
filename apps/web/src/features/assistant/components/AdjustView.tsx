import { Mic, MicOff, Undo2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useDictation } from '@/features/history';
import { useI18n, type Translate } from '@/i18n';
import { isScreenAvailable, screenPath } from '@/lib/screens';
import type { AdjustNotice, AdjustPlan } from '../hooks/useAdjustPlan';
import type { PreviewRow } from '../model/adjust';
import { problemText } from '../model/problem-text';

/**
 * "Adjust current test plan" (docs/design.md §10): the change in words (typed or spoken), its before →
 * after preview per field with what James did not understand, Apply and Undo.
 */
export function AdjustView({
  adjust,
  planOnScreen,
  onNavigate,
}: {
  adjust: AdjustPlan;
  /** The open plan screen's kind, or null when no plan screen is open. */
  planOnScreen: 'performance' | 'functional' | null;
  onNavigate: () => void;
}) {
  const { t, language } = useI18n();
  const [speech, setSpeech] = useState<'unsupported' | null>(null);
  const dictation = useDictation(
    language === 'ko' ? 'ko-KR' : 'en-US',
    (text) => {
      adjust.setCommand(text);
      adjust.showPreview(text);
    },
    () => setSpeech('unsupported'),
  );

  if (planOnScreen === null) {
    return (
      <div className="space-y-3" data-testid="james-adjust-no-plan">
        <p className="text-sm">{t('assistant.adjust.noPlan')}</p>
        <ul className="space-y-1 text-sm">
          {(
            [
              ['createTestUrl', 'assistant.adjust.openPerformance'],
              ['functionalUrl', 'assistant.adjust.openFunctional'],
            ] as const
          )
            .filter(([screen]) => isScreenAvailable(screen))
            .map(([screen, label]) => (
              <li key={screen}>
                <Link
                  to={screenPath(screen)}
                  onClick={onNavigate}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {t(label)}
                </Link>
              </li>
            ))}
        </ul>
      </div>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    adjust.showPreview();
  };

  return (
    <div className="space-y-4">
      <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        {t(`assistant.adjust.kind.${planOnScreen}`)}
      </p>
      <form className="space-y-2" onSubmit={submit}>
        <Label htmlFor="james-adjust-input">{t('assistant.adjust.label')}</Label>
        <Textarea
          id="james-adjust-input"
          rows={3}
          value={adjust.command}
          placeholder={t('assistant.adjust.placeholder')}
          onChange={(event) => adjust.setCommand(event.target.value)}
          onKeyDown={(event) => {
            // Enter previews; Shift+Enter starts a new line.
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              adjust.showPreview();
            }
          }}
          data-testid="james-adjust-input"
        />
        <p className="text-xs leading-5 text-muted-foreground">{t('assistant.adjust.help')}</p>
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            size="sm"
            disabled={!adjust.command.trim()}
            data-testid="james-adjust-preview"
          >
            {t('assistant.adjust.preview')}
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            aria-pressed={dictation.listening}
            onClick={() => {
              setSpeech(null);
              dictation.toggle();
            }}
            data-testid="james-adjust-speak"
          >
            {dictation.listening ? <MicOff /> : <Mic />}
            {dictation.listening ? t('assistant.adjust.stopListening') : t('assistant.adjust.speak')}
          </Button>
        </div>
        {dictation.listening && (
          <p role="status" className="text-xs text-muted-foreground">
            {t('assistant.adjust.listening')}
          </p>
        )}
        {speech === 'unsupported' && <Alert variant="warning">{t('assistant.adjust.unsupported')}</Alert>}
        {dictation.failed && <Alert variant="warning">{t('assistant.adjust.speechFailed')}</Alert>}
      </form>

      {adjust.notice && <NoticeLine notice={adjust.notice} t={t} />}
      {adjust.canUndo && (
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={adjust.undo}
          data-testid="james-adjust-undo"
        >
          <Undo2 />
          {t('assistant.adjust.undo')}
        </Button>
      )}

      {adjust.preview && (
        <section
          aria-labelledby="james-preview-title"
          className="space-y-3"
          data-testid="james-adjust-preview-panel"
        >
          <h3 id="james-preview-title" className="text-sm font-semibold">
            {t('assistant.adjust.previewTitle')}
          </h3>
          {adjust.preview.rows.length > 0 ? (
            <PreviewTable rows={adjust.preview.rows} t={t} />
          ) : (
            <p className="text-sm text-muted-foreground" data-testid="james-adjust-no-change">
              {adjust.preview.problems.length > 0
                ? t('assistant.adjust.noChange')
                : t('assistant.adjust.sameValues')}
            </p>
          )}
          {adjust.preview.problems.length > 0 && (
            <div className="space-y-1" data-testid="james-adjust-problems">
              <p className="text-sm font-medium text-destructive-text">{t('assistant.adjust.problems')}</p>
              <ul className="list-disc space-y-0.5 pl-5 text-[13px] text-destructive-text">
                {adjust.preview.problems.map((problem, index) => (
                  <li key={`${problem}-${index}`}>{problemText(problem, t)}</li>
                ))}
              </ul>
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            {adjust.preview.rows.length > 0 && (
              <Button type="button" size="sm" onClick={adjust.apply} data-testid="james-adjust-apply">
                {t('assistant.adjust.apply')}
              </Button>
            )}
            <Button type="button" size="sm" variant="ghost" onClick={adjust.discard}>
              {t('assistant.adjust.discard')}
            </Button>
          </div>
        </section>
      )}
    </div>
  );
}

function NoticeLine({ notice, t }: { notice: AdjustNotice; t: Translate }) {
  switch (notice.kind) {
    case 'notReady':
      return <Alert variant="warning">{t('assistant.adjust.notReady', { problem: notice.problem })}</Alert>;
    case 'changedSince':
      return <Alert variant="info">{t('assistant.adjust.changedSince')}</Alert>;
    case 'applied':
      return (
        <Alert variant="success" data-testid="james-adjust-applied">
          {notice.count === 1
            ? t('assistant.adjust.appliedOne')
            : t('assistant.adjust.applied', { count: notice.count })}
        </Alert>
      );
    case 'undone':
      return (
        <Alert variant="info" data-testid="james-adjust-undone">
          {t('assistant.adjust.undone')}
        </Alert>
      );
    case 'undoGone':
      return <Alert variant="warning">{t('assistant.adjust.undoGone')}</Alert>;
  }
}

function fieldLabel(row: PreviewRow, t: Translate): string {
  const field =
    row.field === 'header'
      ? t('assistant.field.header', { header: row.header ?? '' })
      : t(`assistant.field.${row.field}`);
  return field;
}

function PreviewTable({ rows, t }: { rows: readonly PreviewRow[]; t: Translate }) {
  const value = (text: string | null, removed: boolean) =>
    text === null ? (removed ? t('assistant.value.removed') : t('assistant.value.none')) : text || '—';
  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <table className="w-full text-[13px]" data-testid="james-adjust-rows">
        <thead className="bg-muted/60 text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-2 py-1.5 font-medium">
              {t('assistant.adjust.field')}
            </th>
            <th scope="col" className="px-2 py-1.5 font-medium">
              {t('assistant.adjust.before')}
            </th>
            <th scope="col" className="px-2 py-1.5 font-medium">
              {t('assistant.adjust.after')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} className="border-t border-border align-top" data-field={row.field}>
              <th scope="row" className="px-2 py-1.5 text-left font-medium">
                {fieldLabel(row, t)}
                {row.api && (
                  <span className="block text-xs font-normal text-muted-foreground">
                    {t('assistant.field.onApi', { number: row.api.number, name: row.api.name })}
                  </span>
                )}
              </th>
              <td className="px-2 py-1.5 text-muted-foreground">{value(row.before, false)}</td>
              <td className="px-2 py-1.5 font-medium">{value(row.after, row.field === 'api')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
