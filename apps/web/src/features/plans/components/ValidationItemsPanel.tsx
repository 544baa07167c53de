import { VALIDATION_TYPES } from '@aqa/plan';
import { ListChecks, Plus, X } from 'lucide-react';
import { useState, type Dispatch } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import { type PlanFormAction } from '../model/plan-form';
import { NativeSelect } from '@/components/ui/native-select';
import { newId, type EntryForm, type ValidationType, SectionTitle } from '@/features/call-editor';

/**
 * The validation configuration panel of a call editor: the checks Validate judges against the real answer
 * (docs/reference/01-authoring.md §3 "Validation item"). Add is disabled while the expected value is blank; Enter adds too.
 */
export function ValidationItemsPanel({
  entry,
  dispatch,
  testId,
}: {
  entry: EntryForm;
  dispatch: Dispatch<PlanFormAction>;
  testId: string;
}) {
  const t = useT();
  const [type, setType] = useState<ValidationType>('status_code');
  const [expected, setExpected] = useState('');
  const [description, setDescription] = useState('');
  const canAdd = expected.trim() !== '';

  const add = () => {
    if (!canAdd) return;
    dispatch({
      type: 'addValidation',
      entryId: entry.id,
      id: newId('validation'),
      item: { type, expected_value: expected, description },
    });
    setExpected('');
    setDescription('');
  };
  const onKeyDown = (event: { key: string; preventDefault: () => void }) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  return (
    <section
      className="space-y-3"
      aria-labelledby={`${entry.id}-validations`}
      data-testid={`${testId}-validations`}
    >
      <SectionTitle
        id={`${entry.id}-validations`}
        icon={ListChecks}
        title={t('plans.validationsTitle')}
        text={t('plans.validationsText')}
        badge={
          entry.validations.length > 0 && (
            <Badge variant="secondary" className="num">
              {entry.validations.length}
            </Badge>
          )
        }
      />

      {entry.validations.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-3 py-2.5 text-[13px] text-muted-foreground">
          {t('plans.noValidations')}
        </p>
      ) : (
        <ul
          className="divide-y divide-border rounded-lg border border-border"
          data-testid={`${testId}-validation-list`}
        >
          {entry.validations.map((item) => (
            <li key={item.id} className="flex items-start gap-3 px-3 py-2.5">
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium">{item.name}</span>
                  <Badge variant="outline">{t(`plans.vt.${item.type}`)}</Badge>
                </div>
                <p className="break-all font-mono text-[13px]">{item.expected_value}</p>
                {item.description && (
                  <p className="text-[13px] leading-5 text-muted-foreground">{item.description}</p>
                )}
              </div>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={t('plans.removeValidation', { name: item.name })}
                onClick={() => dispatch({ type: 'removeValidation', entryId: entry.id, itemId: item.id })}
                className="text-muted-foreground hover:text-destructive"
              >
                <X />
              </Button>
            </li>
          ))}
        </ul>
      )}

      <div className="grid gap-2 sm:grid-cols-[minmax(0,11rem)_minmax(0,1.4fr)_minmax(0,1fr)_auto]">
        <NativeSelect
          aria-label={t('plans.validationType')}
          value={type}
          onChange={(event) => {
            const next = VALIDATION_TYPES.find((value) => value === event.target.value);
            if (next) setType(next);
          }}
          data-testid={`${testId}-validation-type`}
        >
          {VALIDATION_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`plans.vt.${value}`)}
            </option>
          ))}
        </NativeSelect>
        <Input
          aria-label={t('plans.validationExpected')}
          placeholder={t(`plans.vp.${type}`)}
          value={expected}
          onChange={(event) => setExpected(event.target.value)}
          onKeyDown={onKeyDown}
          className="font-mono text-[13px]"
          data-testid={`${testId}-validation-expected`}
        />
        <Input
          aria-label={t('plans.validationDescription')}
          placeholder={t('plans.validationDescriptionPlaceholder')}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          onKeyDown={onKeyDown}
          data-testid={`${testId}-validation-description`}
        />
        <Button variant="outline" disabled={!canAdd} onClick={add} data-testid={`${testId}-validation-add`}>
          <Plus />
          {t('plans.addValidation')}
        </Button>
      </div>
    </section>
  );
}
