import type { HttpMethod } from '@aqa/plan';
import type { Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { SchemeFix } from '@/components/scheme-fix';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import type { FunctionalApiForm, FunctionalFormAction } from '../model/functional-form';
import { translateFunctionalMessage } from '../model/messages';
import { MethodSelect, methodTone } from '@/features/call-editor';

/**
 * What an API card (FunctionalApiCard) and a UI test card (UiTestCard) both show of their call: the
 * summary line of the card's head and the name, method and URL fields (docs/reference/02-running.md §2
 * "Functional URL Input screen" and "UI tests"). Each card keeps its own words and methods.
 */

type Entry = FunctionalApiForm['entry'];

/**
 * The card's problems (by its field keys, see plan-check.ts) in the screen's language: one field's, and
 * the first, which the card shows while folded.
 */
export function useCallCardProblems(errors: Record<string, string>) {
  const t = useT();
  const error = (field: string) => {
    const message = errors[field];
    return message ? translateFunctionalMessage(message, t) : undefined;
  };
  const firstKey = Object.keys(errors)[0];
  return { error, firstError: firstKey === undefined ? undefined : error(firstKey) };
}

/** A folded card's first problem, under its head. */
export function CallCardFoldedProblem({ testId, problem }: { testId: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p className="px-4 pb-3 text-[13px] leading-5 text-destructive" data-testid={`${testId}-problem`}>
      {problem}
    </p>
  );
}

export interface CallCardSummaryProps {
  entry: Entry;
  number: number;
  open: boolean;
  testId: string;
  /** The title of a call without a name. */
  unnamed: string;
  /** The method column's width: as wide as the longest method the card offers. */
  methodClassName: string;
}

/** The card's number, method and name, and its URL while the card is folded. */
export function CallCardSummary({
  entry,
  number,
  open,
  testId,
  unnamed,
  methodClassName,
}: CallCardSummaryProps) {
  const title = entry.name.trim() || unnamed;
  return (
    <>
      <span
        className="num flex h-6 min-w-6 shrink-0 items-center justify-center rounded-md bg-accent px-1.5 text-xs font-semibold text-accent-foreground"
        aria-hidden
      >
        {number}
      </span>
      <span
        className={cn(
          methodClassName,
          'shrink-0 font-mono text-[12px] font-semibold',
          methodTone(entry.method),
        )}
        aria-hidden
      >
        {entry.method}
      </span>
      <span className="min-w-0 flex-1">
        <span
          className={cn(
            'block truncate text-sm font-medium',
            !entry.name.trim() && 'italic text-muted-foreground',
          )}
          data-testid={`${testId}-title`}
        >
          {title}
        </span>
        {!open && entry.url.trim() && (
          <span className="block truncate font-mono text-[12px] text-muted-foreground">
            {entry.url.trim()}
          </span>
        )}
      </span>
    </>
  );
}

export interface CallNameUrlFieldsProps {
  entry: Entry;
  dispatch: Dispatch<FunctionalFormAction>;
  testId: string;
  /** The field's translated problem, if any. */
  error: (field: 'name' | 'url') => string | undefined;
  methods: readonly HttpMethod[];
  /** The method select's width. */
  methodClassName: string;
  text: {
    name: string;
    namePlaceholder: string;
    url: string;
    urlPlaceholder: string;
    method: string;
  };
}

/** The call's name, and its method and URL side by side. */
export function CallNameUrlFields({
  entry,
  dispatch,
  testId,
  error,
  methods,
  methodClassName,
  text,
}: CallNameUrlFieldsProps) {
  const fieldId = (field: string) => `${entry.id}-${field}`;
  const setValue = (field: 'name' | 'url', value: string) =>
    dispatch({ type: 'entry', action: { type: 'setEntryValue', entryId: entry.id, field, value } });
  return (
    <div className="grid gap-4 @2xl:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
      <FormField
        id={fieldId('name')}
        label={text.name}
        required
        error={error('name')}
        errorTestId={`${testId}-name-error`}
      >
        {(control) => (
          <Input
            {...control}
            value={entry.name}
            maxLength={200}
            autoComplete="off"
            placeholder={text.namePlaceholder}
            onChange={(event) => setValue('name', event.target.value)}
            data-testid={`${testId}-name`}
          />
        )}
      </FormField>
      <FormField
        id={fieldId('url')}
        label={text.url}
        required
        error={error('url')}
        errorTestId={`${testId}-url-error`}
      >
        {(control) => (
          <div className="flex min-w-0 gap-2">
            <MethodSelect
              label={text.method}
              value={entry.method}
              methods={methods}
              onChange={(method) =>
                dispatch({ type: 'entry', action: { type: 'setMethod', entryId: entry.id, method } })
              }
              className={methodClassName}
              testId={`${testId}-method`}
            />
            <Input
              {...control}
              inputMode="url"
              value={entry.url}
              spellCheck={false}
              autoComplete="off"
              placeholder={text.urlPlaceholder}
              onChange={(event) => setValue('url', event.target.value)}
              className="min-w-0 flex-1 font-mono text-[13px]"
              data-testid={`${testId}-url`}
            />
          </div>
        )}
      </FormField>
      <div className="empty:hidden @2xl:col-start-2">
        <SchemeFix
          url={entry.url}
          onFix={(fixed) => setValue('url', fixed)}
          data-testid={`${testId}-url-https`}
        />
      </div>
    </div>
  );
}
