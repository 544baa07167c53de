import { BODY_METHODS, FUNCTIONAL_BOUNDS, HTTP_METHODS } from '@aqa/plan';
import { useState, type Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import type { FunctionalApiForm, FunctionalFormAction } from '../model/functional-form';
import { problemsUnder } from '../model/plan-check';
import {
  CallCardFoldedProblem,
  CallCardSummary,
  CallNameUrlFields,
  useCallCardProblems,
} from './CallCardParts';
import { CapturesPanel } from './CapturesPanel';
import { ScriptBlocksPanel } from './ScriptBlocksPanel';
import { ValidationRulesPanel } from './ValidationRulesPanel';
import {
  ApiCardControls,
  ApiTabTrigger,
  AuthorizationFields,
  KeyValueRows,
  type EntryFormAction,
} from '@/features/call-editor';

const CARD_TABS = ['payload', 'parameters', 'headers', 'authorization'] as const;
type CardTab = (typeof CARD_TABS)[number];
const TAB_LABELS = {
  payload: 'functional.editor.tabBody',
  parameters: 'plans.tabParameters',
  headers: 'plans.tabHeaders',
  authorization: 'plans.tabAuthorization',
} as const;

/** Lists longer than this open with their cards collapsed. */
const COLLAPSE_ABOVE = 5;

export interface FunctionalApiCardProps {
  api: FunctionalApiForm;
  index: number;
  count: number;
  dispatch: Dispatch<FunctionalFormAction>;
  /** This API's problems, by the card's field keys (see plan-check.ts). */
  errors: Record<string, string>;
  onRemove: (api: FunctionalApiForm, index: number) => void;
  disabled?: boolean;
  /** The plan has test scripts of its own (a collection's): they judge this API too. */
  planTestScripts?: boolean;
  /** The plan's `default_status_rule` is off: an API with neither rules nor scripts passes once answered. */
  noDefaultRule?: boolean;
}

/**
 * One API of the plan (docs/reference/02-running.md §2 "Functional URL Input screen"): name, URL, method
 * (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS), timeout, description, then the request's body (POST,
 * PUT and PATCH only), parameters, headers and authorization — the performance editor's own parts — and
 * the validation rules and captures. Move up/down and duplicate are beyond the spec.
 */
export function FunctionalApiCard({
  api,
  index,
  count,
  dispatch,
  errors,
  onRemove,
  disabled,
  planTestScripts = false,
  noDefaultRule = false,
}: FunctionalApiCardProps) {
  const t = useT();
  // Test scripts judge a call with no default status rule (docs/adr/0029-postman-collections.md §3).
  const judgedByScripts = planTestScripts || (api.scripts?.test.length ?? 0) > 0;
  const { entry } = api;
  // A long list (an imported file) starts as one line per API; a short one starts open.
  const [open, setOpen] = useState(() => count <= COLLAPSE_ABOVE);
  const number = index + 1;
  const testId = `api-${index}`;
  const fieldId = (field: string) => `${entry.id}-${field}`;
  const { error, firstError } = useCallCardProblems(errors);
  const sendsBody = BODY_METHODS.includes(entry.method);
  const tabs = CARD_TABS.filter((tab) => tab !== 'payload' || sendsBody);
  const tab: CardTab = tabs.includes(entry.tab) ? entry.tab : 'parameters';
  // The shared call editor's actions, applied to this call.
  const entryDispatch: Dispatch<EntryFormAction> = (action) => dispatch({ type: 'entry', action });
  const setValue = (field: 'name' | 'url' | 'payload' | 'timeout', value: string) =>
    entryDispatch({ type: 'setEntryValue', entryId: entry.id, field, value });
  const tabHasError = (name: CardTab) =>
    Object.keys(errors).some((key) => key === name || key.startsWith(`${name}.`));

  return (
    <Card
      className={cn('@container relative', disabled && 'pointer-events-none opacity-60')}
      data-testid={testId}
      data-entry-id={entry.id}
      role="group"
      aria-label={t('functional.editor.apiLabel', { number })}
    >
      <div className="flex items-center gap-2 px-3 py-3 sm:px-4">
        <CallCardSummary
          entry={entry}
          number={number}
          open={open}
          testId={testId}
          unnamed={t('functional.editor.unnamedApi')}
          methodClassName="w-14"
        />
        <ApiCardControls
          index={index}
          count={count}
          testId={testId}
          labels={{
            moveUp: t('functional.editor.moveUp'),
            moveDown: t('functional.editor.moveDown'),
            duplicate: t('functional.editor.duplicate'),
            remove: t('functional.editor.remove'),
            expand: t('functional.editor.expand'),
            collapse: t('functional.editor.collapse'),
          }}
          onMove={(from, to) => dispatch({ type: 'moveApi', from, to })}
          onDuplicate={() => dispatch({ type: 'duplicateApi', entryId: entry.id })}
          onRemove={() => onRemove(api, index)}
          open={open}
          onToggle={() => setOpen((value) => !value)}
          detailsId={fieldId('details')}
          className="shrink-0"
        />
      </div>
      {api.group !== undefined && (
        <p className="-mt-2 px-3 pb-2 text-xs text-muted-foreground sm:px-4" data-testid={`${testId}-group`}>
          {t('functional.postman.folder', { folder: api.group })}
        </p>
      )}
      {!open && <CallCardFoldedProblem testId={testId} problem={firstError} />}

      {open && (
        <div id={fieldId('details')} className="space-y-6 border-t border-border px-3 pb-5 pt-4 sm:px-4">
          <CallNameUrlFields
            entry={entry}
            dispatch={dispatch}
            testId={testId}
            error={error}
            methods={HTTP_METHODS}
            methodClassName="w-[7.5rem]"
            text={{
              name: t('functional.editor.apiName'),
              namePlaceholder: t('functional.editor.apiNamePlaceholder'),
              url: t('functional.editor.url'),
              urlPlaceholder: t('functional.editor.urlPlaceholder'),
              method: t('functional.editor.method'),
            }}
          />
          <div className="grid gap-4 @2xl:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <FormField
              id={fieldId('timeout')}
              label={t('functional.editor.timeout')}
              hint={t('functional.editor.timeoutHint', { ...FUNCTIONAL_BOUNDS.timeout })}
            >
              {(control) => (
                <Input
                  {...control}
                  inputMode="numeric"
                  value={entry.timeout}
                  autoComplete="off"
                  onChange={(event) => setValue('timeout', event.target.value)}
                  data-testid={`${testId}-timeout`}
                />
              )}
            </FormField>
            <FormField
              id={fieldId('description')}
              label={t('functional.editor.apiDescription')}
              error={error('description')}
            >
              {(control) => (
                <Input
                  {...control}
                  value={api.description}
                  maxLength={2000}
                  placeholder={t('functional.editor.apiDescriptionPlaceholder')}
                  onChange={(event) =>
                    dispatch({ type: 'setApiDescription', entryId: entry.id, value: event.target.value })
                  }
                  data-testid={`${testId}-description`}
                />
              )}
            </FormField>
          </div>

          <Tabs
            value={tab}
            onValueChange={(value) => {
              const next = CARD_TABS.find((item) => item === value);
              if (next) entryDispatch({ type: 'setTab', entryId: entry.id, tab: next });
            }}
          >
            <TabsList
              aria-label={t('functional.editor.apiLabel', { number })}
              className="max-sm:grid max-sm:h-auto max-sm:w-full max-sm:grid-cols-2"
            >
              {tabs.map((item) => (
                <ApiTabTrigger
                  key={item}
                  value={item}
                  label={t(TAB_LABELS[item])}
                  hasError={tabHasError(item)}
                  authorizationSet={entry.authorization.type !== 'none'}
                  testId={testId}
                />
              ))}
            </TabsList>
            {sendsBody && (
              <TabsContent value="payload">
                <FormField
                  id={fieldId('payload')}
                  label={t('functional.editor.body')}
                  hint={t('functional.editor.bodyHint')}
                  error={error('payload')}
                >
                  {(control) => (
                    <Textarea
                      {...control}
                      rows={6}
                      value={entry.payload}
                      spellCheck={false}
                      placeholder='{"username": "demo", "password": "secret"}'
                      onChange={(event) => setValue('payload', event.target.value)}
                      className="font-mono text-[13px]"
                      data-testid={`${testId}-body`}
                    />
                  )}
                </FormField>
              </TabsContent>
            )}
            {(['parameters', 'headers'] as const).map((list) => (
              <TabsContent key={list} value={list}>
                <KeyValueRows
                  entry={entry}
                  list={list}
                  dispatch={entryDispatch}
                  errors={errors}
                  testId={testId}
                />
              </TabsContent>
            ))}
            <TabsContent value="authorization">
              <AuthorizationFields entry={entry} dispatch={entryDispatch} errors={errors} testId={testId} />
            </TabsContent>
          </Tabs>
          {!sendsBody && (
            <p className="text-[13px] text-muted-foreground" data-testid={`${testId}-no-body`}>
              {t('functional.editor.bodyOnlyFor')}
            </p>
          )}

          <ValidationRulesPanel
            api={api}
            dispatch={dispatch}
            errors={problemsUnder(errors, 'rule.')}
            testId={testId}
            {...(judgedByScripts
              ? { labels: { empty: t('functional.postman.noRulesScripts') } }
              : noDefaultRule
                ? { labels: { empty: t('functional.postman.noRulesAnswered') } }
                : {})}
          />
          <CapturesPanel
            api={api}
            dispatch={dispatch}
            errors={problemsUnder(errors, 'capture.')}
            testId={testId}
          />
          <ScriptBlocksPanel
            scripts={api.scripts}
            owner={{ entryId: entry.id }}
            dispatch={dispatch}
            error={errors.scripts}
            testId={testId}
          />
        </div>
      )}
    </Card>
  );
}
