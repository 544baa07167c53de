import { API_VALIDATION_TYPES, expectedValueProblem, type FunctionalValidationType } from '@aqa/plan';
import { ListChecks, Plus, X } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { NativeSelect } from '@/components/ui/native-select';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { translateFunctionalMessage } from '../model/messages';
import type { ApiPanelProps } from './api-panel';
import { SectionTitle } from '@/features/call-editor';

/** What the rule form says of a type: its name, what its expected value reads, and an example. */
export interface RuleTypeText {
  label: string;
  hint: string;
  placeholder: string;
}

/**
 * An API's validation rules (docs/reference/02-running.md §2, §3 "Validation"): the list (type, expected,
 * description, an enabled switch, remove) and the Add form — type, expected value, optional description —
 * whose Add stays disabled while the expected value is blank. A bad value is named by the model's own
 * check (expectedValueProblem) before it is added; each type shows what it reads. The UI screen offers
 * its page types (`types`, `typeText`) instead of the API types. A rule read from a script or a converted
 * performance plan may carry what no control edits (a subject with its path, negate: docs/call-core.md
 * "A performance plan's assertion"): it is shown as text beside the rule and saved unchanged.
 */
export function ValidationRulesPanel({
  api,
  dispatch,
  errors,
  testId,
  labels,
  types = API_VALIDATION_TYPES,
  typeText,
}: ApiPanelProps & {
  /** Another screen's words for the title, its line and the empty list (the script screen's rules). */
  labels?: { title?: string; text?: string; empty?: string };
  /** The types offered, the first chosen at first; the API types unless said. */
  types?: readonly FunctionalValidationType[];
  /** The words for each offered type; the API types' own unless said. */
  typeText?: (type: FunctionalValidationType) => RuleTypeText;
}) {
  const t = useT();
  const entryId = api.entry.id;
  const [type, setType] = useState<FunctionalValidationType>(types[0] ?? 'status_code');
  const [expected, setExpected] = useState('');
  const [description, setDescription] = useState('');
  const blank = expected.trim() === '';
  const problem = blank ? undefined : expectedValueProblem(type, expected);
  const enabled = api.rules.filter((rule) => rule.enabled).length;
  // A loaded plan may hold a type the screen does not offer; the model names that problem, the badge
  // shows the type as written.
  const textOf = (value: FunctionalValidationType): RuleTypeText | undefined =>
    !types.includes(value)
      ? undefined
      : typeText
        ? typeText(value)
        : isApiType(value)
          ? {
              label: t(`functional.editor.rt.${value}`),
              hint: t(`functional.editor.rh.${value}`),
              placeholder: t(`functional.editor.rp.${value}`),
            }
          : undefined;
  const typeLabel = (value: FunctionalValidationType) => textOf(value)?.label ?? value;
  const chosen = textOf(type);

  const add = () => {
    if (blank || problem) return;
    dispatch({ type: 'addRule', entryId, rule: { type, expected_value: expected, description } });
    setExpected('');
    setDescription('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Enter' && !(event.currentTarget instanceof HTMLTextAreaElement)) {
      event.preventDefault();
      add();
    }
  };
  const expectedId = `${entryId}-rule-expected`;
  // A schema is a document: it gets a text area; the other types a line.
  const expectedProps = {
    id: expectedId,
    'aria-label': t('functional.editor.ruleExpected'),
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': `${expectedId}-hint`,
    placeholder: chosen?.placeholder,
    value: expected,
    spellCheck: false,
    className: 'font-mono text-[13px]',
    'data-testid': `${testId}-rule-expected`,
  };

  return (
    <section className="space-y-3" aria-labelledby={`${entryId}-rules`} data-testid={`${testId}-rules`}>
      <SectionTitle
        id={`${entryId}-rules`}
        icon={ListChecks}
        title={labels?.title ?? t('functional.editor.rulesTitle')}
        text={labels?.text ?? t('functional.editor.rulesText')}
        badge={
          api.rules.length > 0 && (
            <Badge variant="secondary" className="num">
              {t('functional.editor.ruleCount', { enabled, total: api.rules.length })}
            </Badge>
          )
        }
      />

      {api.rules.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-3 py-2.5 text-[13px] text-muted-foreground">
          {labels?.empty ?? t('functional.editor.noRules')}
        </p>
      ) : (
        <ul
          className="divide-y divide-border rounded-lg border border-border"
          data-testid={`${testId}-rule-list`}
        >
          {api.rules.map((rule, index) => (
            <li
              key={rule.id}
              className={cn('flex items-start gap-3 px-3 py-2.5', !rule.enabled && 'bg-muted/40')}
              data-testid={`${testId}-rule-${index}`}
            >
              <input
                type="checkbox"
                checked={rule.enabled}
                aria-label={`${t('functional.editor.ruleEnabled')}: ${rule.name}`}
                onChange={(event) =>
                  dispatch({ type: 'toggleRule', entryId, ruleId: rule.id, enabled: event.target.checked })
                }
                className="mt-1 size-4 shrink-0 accent-primary"
                data-testid={`${testId}-rule-${index}-enabled`}
              />
              <div className={cn('min-w-0 flex-1 space-y-1', !rule.enabled && 'opacity-60')}>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium">{rule.name}</span>
                  <Badge variant="outline">{typeLabel(rule.type)}</Badge>
                </div>
                <p className="line-clamp-3 break-all font-mono text-[13px]">{rule.expected_value}</p>
                {(rule.negate === true || rule.subject !== undefined) && (
                  <p
                    className="break-all text-[13px] leading-5 text-muted-foreground"
                    data-testid={`${testId}-rule-${index}-reads`}
                  >
                    {[
                      rule.subject &&
                        t(`functional.editor.ruleSubject.${rule.subject}`, { path: rule.path ?? '' }),
                      rule.negate === true && t('functional.editor.ruleNegated'),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                )}
                {rule.description && (
                  <p className="text-[13px] leading-5 text-muted-foreground">{rule.description}</p>
                )}
                {errors[rule.id] && (
                  <p className="text-[13px] leading-5 text-destructive" role="alert">
                    {translateFunctionalMessage(errors[rule.id] ?? '', t)}
                  </p>
                )}
              </div>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={t('functional.editor.removeRule', { name: rule.name })}
                onClick={() => dispatch({ type: 'removeRule', entryId, ruleId: rule.id })}
                className="text-muted-foreground hover:text-destructive"
                data-testid={`${testId}-rule-${index}-remove`}
              >
                <X />
              </Button>
            </li>
          ))}
        </ul>
      )}

      <div className="space-y-2 rounded-lg bg-muted/40 p-3">
        <div className="grid gap-2 sm:grid-cols-[minmax(0,12rem)_minmax(0,1.4fr)_minmax(0,1fr)_auto]">
          <NativeSelect
            aria-label={t('functional.editor.ruleType')}
            value={type}
            onChange={(event) => {
              const next = types.find((value) => value === event.target.value);
              if (next) setType(next);
            }}
            data-testid={`${testId}-rule-type`}
          >
            {types.map((value) => (
              <option key={value} value={value}>
                {typeLabel(value)}
              </option>
            ))}
          </NativeSelect>
          {type === 'schema' ? (
            <Textarea {...expectedProps} rows={3} onChange={(event) => setExpected(event.target.value)} />
          ) : (
            <Input
              {...expectedProps}
              autoComplete="off"
              onChange={(event) => setExpected(event.target.value)}
              onKeyDown={onKeyDown}
            />
          )}
          <Input
            aria-label={t('functional.editor.ruleDescription')}
            placeholder={t('functional.editor.ruleDescription')}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            onKeyDown={onKeyDown}
            data-testid={`${testId}-rule-description`}
          />
          <Button
            variant="outline"
            disabled={blank || problem !== undefined}
            onClick={add}
            data-testid={`${testId}-rule-add`}
          >
            <Plus />
            {t('functional.editor.addRule')}
          </Button>
        </div>
        {problem ? (
          <p
            id={`${expectedId}-hint`}
            className="text-[13px] leading-5 text-destructive"
            data-testid={`${testId}-rule-problem`}
          >
            {translateFunctionalMessage(problem, t)}
          </p>
        ) : (
          <p
            id={`${expectedId}-hint`}
            className="break-words text-[13px] leading-5 text-muted-foreground"
            data-testid={`${testId}-rule-hint`}
          >
            {chosen?.hint}
          </p>
        )}
      </div>
    </section>
  );
}

type ApiRuleType = (typeof API_VALIDATION_TYPES)[number];

function isApiType(type: FunctionalValidationType): type is ApiRuleType {
  return (API_VALIDATION_TYPES as readonly string[]).includes(type);
}
