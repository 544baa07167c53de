import { CAPTURE_SOURCES } from '@aqa/plan';
import { Link2, Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import type { CaptureForm } from '../model/functional-form';
import { translateFunctionalMessage } from '../model/messages';
import type { ApiPanelProps } from './api-panel';
import { SectionTitle } from '@/features/call-editor';

/**
 * Chaining (beyond docs/reference/02-running.md, docs/design.md §9): values this API's answer gives — by
 * JSON path, regex or header — kept under a name that later APIs use as {{name}}.
 */
export function CapturesPanel({ api, dispatch, errors, testId }: ApiPanelProps) {
  const t = useT();
  const entryId = api.entry.id;
  const textInput = (capture: CaptureForm, field: 'name' | 'expression', index: number, rowId: string) => {
    const label = field === 'name' ? 'functional.editor.captureName' : 'functional.editor.captureExpression';
    return (
      <Input
        aria-label={`${t(label)} ${index + 1}`}
        placeholder={field === 'name' ? t(label) : t(`functional.editor.cp.${capture.from}`)}
        value={capture[field]}
        aria-invalid={errors[`${capture.id}.${field}`] ? true : undefined}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) =>
          dispatch({
            type: 'setCapture',
            entryId,
            captureId: capture.id,
            patch: { [field]: event.target.value },
          })
        }
        className={cn(
          'font-mono text-[13px]',
          field === 'expression' && 'max-sm:col-span-2 max-sm:row-start-2',
        )}
        data-testid={`${rowId}-${field}`}
      />
    );
  };

  return (
    <section className="space-y-3" aria-labelledby={`${entryId}-captures`} data-testid={`${testId}-captures`}>
      <SectionTitle
        id={`${entryId}-captures`}
        icon={Link2}
        title={t('functional.editor.capturesTitle')}
        text={t('functional.editor.capturesText')}
      />
      {api.captures.length === 0 ? (
        <p className="text-[13px] text-muted-foreground">{t('functional.editor.noCaptures')}</p>
      ) : (
        <ul className="space-y-3">
          {api.captures.map((capture, index) => {
            const rowId = `${testId}-capture-${index}`;
            const error = errors[`${capture.id}.name`] ?? errors[`${capture.id}.expression`];
            const name = capture.name.trim();
            return (
              <li key={capture.id} className="space-y-1" data-testid={rowId}>
                <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,8.5rem)_auto] gap-2 sm:grid-cols-[minmax(0,10rem)_minmax(0,9rem)_minmax(0,1fr)_auto]">
                  {textInput(capture, 'name', index, rowId)}
                  <NativeSelect
                    aria-label={`${t('functional.editor.captureFrom')} ${index + 1}`}
                    value={capture.from}
                    onChange={(event) => {
                      const from = CAPTURE_SOURCES.find((value) => value === event.target.value);
                      if (from)
                        dispatch({ type: 'setCapture', entryId, captureId: capture.id, patch: { from } });
                    }}
                    data-testid={`${rowId}-from`}
                  >
                    {CAPTURE_SOURCES.map((from) => (
                      <option key={from} value={from}>
                        {t(`functional.editor.cf.${from}`)}
                      </option>
                    ))}
                  </NativeSelect>
                  {textInput(capture, 'expression', index, rowId)}
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('functional.editor.removeCapture')}
                    onClick={() => dispatch({ type: 'removeCapture', entryId, captureId: capture.id })}
                    className="text-muted-foreground hover:text-destructive max-sm:col-start-3 max-sm:row-start-1"
                    data-testid={`${rowId}-remove`}
                  >
                    <Trash2 />
                  </Button>
                </div>
                {error ? (
                  <p className="text-[13px] leading-5 text-destructive" role="alert">
                    {translateFunctionalMessage(error, t)}
                  </p>
                ) : (
                  name && (
                    <p className="text-[13px] leading-5 text-muted-foreground">
                      {t('functional.editor.captureUse', { use: `{{${name}}}` })}
                    </p>
                  )
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Button
        variant="outline"
        size="sm"
        onClick={() => dispatch({ type: 'addCapture', entryId })}
        data-testid={`${testId}-capture-add`}
      >
        <Plus />
        {t('functional.editor.addCapture')}
      </Button>
    </section>
  );
}
