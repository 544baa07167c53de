import { CAPTURE_SOURCES } from '@aqa/plan';
import { Link2, Plus, Trash2 } from 'lucide-react';
import type { Dispatch } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/features/plans';
import { useT } from '@/i18n';
import type { FunctionalApiForm, FunctionalFormAction } from '../model/functional-form';
import { translateFunctionalMessage } from '../model/messages';

/**
 * Chaining (beyond docs/reference/02-running.md, docs/design.md §9): values this API's answer gives — by
 * JSON path, regex or header — kept under a name that later APIs use as {{name}}.
 */
export function CapturesPanel({
  api,
  dispatch,
  errors,
  testId,
}: {
  api: FunctionalApiForm;
  dispatch: Dispatch<FunctionalFormAction>;
  /** Problems by `<captureId>.<field>`. */
  errors: Record<string, string>;
  testId: string;
}) {
  const t = useT();
  const entryId = api.entry.id;

  return (
    <section className="space-y-3" aria-labelledby={`${entryId}-captures`} data-testid={`${testId}-captures`}>
      <div className="space-y-0.5">
        <h4 id={`${entryId}-captures`} className="flex items-center gap-2 text-sm font-semibold">
          <Link2 aria-hidden className="size-4 text-muted-foreground" />
          {t('functional.editor.capturesTitle')}
        </h4>
        <p className="text-[13px] leading-5 text-muted-foreground">{t('functional.editor.capturesText')}</p>
      </div>
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
                  <Input
                    aria-label={`${t('functional.editor.captureName')} ${index + 1}`}
                    placeholder={t('functional.editor.captureName')}
                    value={capture.name}
                    aria-invalid={errors[`${capture.id}.name`] ? true : undefined}
                    spellCheck={false}
                    autoComplete="off"
                    onChange={(event) =>
                      dispatch({
                        type: 'setCapture',
                        entryId,
                        captureId: capture.id,
                        patch: { name: event.target.value },
                      })
                    }
                    className="font-mono text-[13px]"
                    data-testid={`${rowId}-name`}
                  />
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
                  <Input
                    aria-label={`${t('functional.editor.captureExpression')} ${index + 1}`}
                    placeholder={t(`functional.editor.cp.${capture.from}`)}
                    value={capture.expression}
                    aria-invalid={errors[`${capture.id}.expression`] ? true : undefined}
                    spellCheck={false}
                    autoComplete="off"
                    onChange={(event) =>
                      dispatch({
                        type: 'setCapture',
                        entryId,
                        captureId: capture.id,
                        patch: { expression: event.target.value },
                      })
                    }
                    className="font-mono text-[13px] max-sm:col-span-2 max-sm:row-start-2"
                    data-testid={`${rowId}-expression`}
                  />
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
