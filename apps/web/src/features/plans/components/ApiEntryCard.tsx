import { BODY_METHODS, type HttpMethod } from '@aqa/plan';
import { Crosshair, ShieldCheck, Timer } from 'lucide-react';
import { useState, type CSSProperties, type Dispatch, type ReactNode } from 'react';
import { FormField } from '@/components/form-field';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { useT } from '@/i18n';
import { SchemeFix } from '@/components/scheme-fix';
import { cn } from '@/lib/utils';
import { MAX_TIMEOUT_S, MIN_TIMEOUT_S } from '@aqa/plan';
import { FORM_METHODS, SCRIPT_METHODS, type PlanFormAction } from '../model/plan-form';
import { translatePlanMessage } from '../plan-messages';
import { NativeSelect } from '@/components/ui/native-select';
import { ValidationItemsPanel } from './ValidationItemsPanel';
import {
  defaultTab,
  ENTRY_TABS,
  type AssertionOperator,
  type AssertionType,
  type EntryForm,
  type EntryTab,
  type EntryValueField,
  type ExtractType,
  ApiCardControls,
  ApiTabTrigger,
  MethodSelect,
  methodTone,
  SectionTitle,
  AuthorizationFields,
  KeyValueRows,
} from '@/features/call-editor';

const EXTRACT_TYPES: readonly ExtractType[] = ['text', 'json', 'xml', 'regex'];
const ASSERTION_TYPES: readonly AssertionType[] = ['json', 'text', 'xml', 'status'];
const ASSERTION_OPERATORS: readonly AssertionOperator[] = ['equals', 'contains', 'regex', 'not_equals'];

const TAB_LABELS = {
  payload: 'plans.tabPayload',
  parameters: 'plans.tabParameters',
  headers: 'plans.tabHeaders',
  authorization: 'plans.tabAuthorization',
} as const;

/**
 * The two call editors: the URL screen's (method and URL in the header; Payload, Parameters, Headers and
 * Authorization tabs) and the script-upload screen's (a named API, collapsed to one line, with Basic,
 * Authorization and Headers tabs, and Duplicate — docs/reference/01-authoring.md §2).
 */
export type ApiCardVariant = 'url' | 'script';

const SCRIPT_TABS = ['basic', 'authorization', 'headers'] as const;
type ScriptTab = (typeof SCRIPT_TABS)[number];

const SCRIPT_TAB_LABELS = {
  basic: 'scriptInput.tabBasic',
  authorization: 'plans.tabAuthorization',
  headers: 'plans.tabHeaders',
} as const;

/** The Basic tab holds what the URL screen spreads over Payload and Parameters. */
function scriptTabOf(tab: EntryTab): ScriptTab {
  return tab === 'headers' || tab === 'authorization' ? tab : 'basic';
}

/** The error keys each tab shows. */
function fieldTab(key: string): EntryTab | 'basic' {
  if (key === 'payload') return 'payload';
  const head = key.split('.')[0] ?? key;
  if (head === 'parameters' || head === 'headers' || head === 'authorization') return head;
  return 'basic';
}

export interface ApiEntryCardProps {
  entry: EntryForm;
  index: number;
  count: number;
  dispatch: Dispatch<PlanFormAction>;
  errors: Record<string, string>;
  onRemove: (entry: EntryForm, index: number) => void;
  /** Script variant: adds a copy after this API. */
  onDuplicate?: (entry: EntryForm) => void;
  variant?: ApiCardVariant;
  /** The drag handle (dnd-kit), placed first in the header. */
  dragHandle?: ReactNode;
  setCardNode?: (element: HTMLElement | null) => void;
  style?: CSSProperties;
  dragging?: boolean;
}

/** One API call of the plan: the call editor of docs/reference/01-authoring.md §2. */
export function ApiEntryCard({
  entry,
  index,
  count,
  dispatch,
  errors,
  onRemove,
  onDuplicate,
  variant = 'url',
  dragHandle,
  setCardNode,
  style,
  dragging,
}: ApiEntryCardProps) {
  const t = useT();
  const scriptCard = variant === 'script';
  // Imported lists are long: their cards start as one line each, unless the plan has a single API or
  // the card is a new, blank one to fill in.
  const [open, setOpen] = useState(() => !scriptCard || count === 1 || entry.url.trim() === '');
  const number = index + 1;
  const testId = `api-${index}`;
  const fieldId = (field: string) => `${entry.id}-${field}`;
  const error = (field: string) => {
    const message = errors[field];
    return message ? translatePlanMessage(message, t) : undefined;
  };
  const setValue = (field: EntryValueField) => (value: string) =>
    dispatch({ type: 'setEntryValue', entryId: entry.id, field, value });
  const sendsBody = BODY_METHODS.includes(entry.method);
  // The tab panels both card layouts show.
  const pairRows = (list: 'parameters' | 'headers') => (
    <KeyValueRows entry={entry} list={list} dispatch={dispatch} errors={errors} testId={testId} />
  );
  const parameterRows = pairRows('parameters');
  const headerRows = pairRows('headers');
  const payloadField = (
    <PayloadField
      sendsBody={sendsBody}
      id={fieldId('payload')}
      value={entry.payload}
      error={error('payload')}
      onChange={setValue('payload')}
      testId={testId}
    />
  );
  const authorizationFields = (
    <AuthorizationFields entry={entry} dispatch={dispatch} errors={errors} testId={testId} />
  );
  const offered: readonly HttpMethod[] = scriptCard ? SCRIPT_METHODS : FORM_METHODS;
  const methods = offered.includes(entry.method) ? offered : [...offered, entry.method];
  const removable = count > 1;
  const blankUrl = entry.url.trim() === '';
  const tabHasError = (tab: EntryTab) =>
    Object.keys(errors).some((key) =>
      tab === 'payload' ? key === 'payload' : key.startsWith(`${tab}.`) || key === tab,
    );
  const scriptTabHasError = (tab: ScriptTab) =>
    Object.keys(errors).some((key) => {
      const home = fieldTab(key);
      return tab === 'basic' ? home === 'basic' || home === 'payload' || home === 'parameters' : home === tab;
    });
  const firstError = Object.keys(errors)[0];

  const methodSelect = (
    <MethodSelect
      label={t('plans.method')}
      value={entry.method}
      methods={methods}
      onChange={(method) => dispatch({ type: 'setMethod', entryId: entry.id, method })}
      className={scriptCard ? 'w-[7.5rem]' : 'w-[6.75rem]'}
      testId={`${testId}-method`}
    />
  );

  const urlInput = (
    <Input
      id={fieldId('url')}
      type="url"
      inputMode="url"
      aria-label={t('plans.url')}
      aria-invalid={error('url') ? true : undefined}
      aria-describedby={error('url') ? fieldId('url-error') : undefined}
      aria-required={scriptCard ? true : undefined}
      placeholder={t('plans.urlPlaceholder')}
      value={entry.url}
      spellCheck={false}
      autoComplete="off"
      onChange={(event) => setValue('url')(event.target.value)}
      className="font-mono text-[13px]"
      data-testid={`${testId}-url`}
    />
  );

  const textField = (
    field: EntryValueField,
    label: string,
    options: {
      placeholder?: string;
      hint?: string;
      mono?: boolean;
      inputMode?: 'numeric' | 'decimal';
      required?: boolean;
    } = {},
  ) => (
    <FormField
      id={fieldId(field)}
      label={label}
      hint={options.hint}
      error={error(field)}
      required={options.required}
    >
      {(control) => (
        <Input
          {...control}
          value={entry[field]}
          placeholder={options.placeholder}
          inputMode={options.inputMode}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setValue(field)(event.target.value)}
          className={cn(options.mono && 'font-mono text-[13px]')}
          data-testid={`${testId}-${field}`}
        />
      )}
    </FormField>
  );

  return (
    <Card
      ref={setCardNode}
      style={style}
      className={cn(
        '@container relative overflow-hidden',
        dragging && 'z-10 shadow-pop ring-2 ring-primary/40',
      )}
      data-testid={testId}
      data-entry-id={entry.id}
      aria-label={t('plans.apiLabel', { number })}
      role="group"
    >
      {/* Header: order, method and URL, and the list controls. */}
      <div className="flex flex-wrap items-center gap-2 px-3 py-3 sm:px-4">
        {dragHandle}
        <span
          className="num order-2 flex h-6 min-w-6 items-center justify-center rounded-md bg-accent px-1.5 text-xs font-semibold text-accent-foreground"
          aria-hidden
        >
          {number}
        </span>
        <span className="sr-only">{t('plans.apiLabel', { number })}</span>

        {scriptCard ? (
          <button
            type="button"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-controls={fieldId('body')}
            className="order-4 flex min-w-0 basis-full items-start gap-2 rounded-md text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:order-3 sm:flex-1 sm:basis-auto"
            data-testid={`${testId}-summary`}
          >
            <span
              className={cn(
                'mt-px w-16 shrink-0 font-mono text-[12px] font-semibold leading-5',
                methodTone(entry.method),
              )}
              data-testid={`${testId}-summary-method`}
            >
              {entry.method}
            </span>
            <span className="min-w-0 flex-1">
              <span
                className={cn(
                  'block truncate text-sm font-medium leading-5',
                  !entry.name.trim() && 'italic text-muted-foreground',
                )}
                data-testid={`${testId}-title`}
              >
                {entry.name.trim() || t('scriptInput.unnamedApi')}
              </span>
              <span
                className="block truncate font-mono text-[12px] leading-5 text-muted-foreground"
                data-testid={`${testId}-summary-url`}
              >
                {entry.url.trim() || t('plans.notIncluded')}
              </span>
            </span>
          </button>
        ) : (
          <div className="order-4 flex min-w-0 basis-full gap-2 sm:order-3 sm:flex-1 sm:basis-auto">
            {methodSelect}
            <div className="min-w-0 flex-1">{urlInput}</div>
          </div>
        )}

        <ApiCardControls
          index={index}
          count={count}
          testId={testId}
          labels={{
            moveUp: t('plans.moveUp'),
            moveDown: t('plans.moveDown'),
            duplicate: t('scriptInput.duplicateApi'),
            remove: t('plans.removeApi'),
            expand: t('plans.expand'),
            collapse: t('plans.collapse'),
          }}
          onMove={(from, to) => dispatch({ type: 'moveEntry', from, to })}
          onDuplicate={scriptCard && onDuplicate ? () => onDuplicate(entry) : undefined}
          onRemove={() => onRemove(entry, index)}
          // Marked (and explained by the tooltip) but still pressable: the list answers a press on the last
          // API with the spec's alert (docs/reference/01-authoring.md §5).
          removeRefusal={removable ? undefined : t('plans.lastApi')}
          open={open}
          onToggle={() => setOpen((value) => !value)}
          detailsId={fieldId('body')}
          className="order-3 ml-auto sm:order-4 sm:ml-0"
        />

        {scriptCard && !open && firstError !== undefined && (
          <p
            className="order-5 basis-full text-[13px] leading-5 text-destructive sm:pl-[4.75rem]"
            data-testid={`${testId}-problem`}
          >
            {error(firstError)}
          </p>
        )}
        {!scriptCard && (error('url') ?? (blankUrl && count > 1)) && (
          <p
            id={fieldId('url-error')}
            className={cn(
              'order-5 basis-full text-[13px] leading-5 sm:pl-[4.75rem]',
              error('url') ? 'text-destructive' : 'text-muted-foreground',
            )}
            data-testid={`${testId}-url-message`}
          >
            {error('url') ?? t('plans.notIncluded')}
          </p>
        )}
        <div className="order-5 basis-full empty:hidden sm:pl-[4.75rem]">
          <SchemeFix url={entry.url} onFix={setValue('url')} data-testid={`${testId}-url-https`} />
        </div>
      </div>

      {open && (
        <div id={fieldId('body')} className="space-y-6 border-t border-border px-3 pb-5 pt-4 sm:px-4">
          {scriptCard ? (
            <Tabs
              value={scriptTabOf(entry.tab)}
              onValueChange={(tab) => {
                const next = SCRIPT_TABS.find((value) => value === tab);
                if (next)
                  dispatch({
                    type: 'setTab',
                    entryId: entry.id,
                    tab: next === 'basic' ? defaultTab(entry.method) : next,
                  });
              }}
            >
              <TabsList aria-label={t('plans.apiLabel', { number })}>
                {SCRIPT_TABS.map((tab) => (
                  <ApiTabTrigger
                    key={tab}
                    value={tab}
                    label={t(SCRIPT_TAB_LABELS[tab])}
                    hasError={scriptTabHasError(tab)}
                    authorizationSet={entry.authorization.type !== 'none'}
                    testId={testId}
                  />
                ))}
              </TabsList>
              <TabsContent value="basic" className="space-y-4" data-testid={`${testId}-panel-basic`}>
                {textField('name', t('scriptInput.apiName'), { required: true })}
                <div className="flex flex-col gap-2">
                  <span className="text-sm font-medium leading-none" id={fieldId('request-label')}>
                    {t('scriptInput.request')}
                    <span aria-hidden className="ml-0.5 text-destructive">
                      *
                    </span>
                  </span>
                  <div className="flex min-w-0 gap-2" role="group" aria-labelledby={fieldId('request-label')}>
                    {methodSelect}
                    <div className="min-w-0 flex-1">{urlInput}</div>
                  </div>
                  {error('url') && (
                    <p id={fieldId('url-error')} className="text-[13px] leading-5 text-destructive">
                      {error('url')}
                    </p>
                  )}
                  <SchemeFix url={entry.url} onFix={setValue('url')} data-testid={`${testId}-url-https`} />
                </div>
                <section className="space-y-2">
                  <h4 className="text-sm font-medium">{t('plans.tabParameters')}</h4>
                  {parameterRows}
                </section>
                {payloadField}
              </TabsContent>
              <TabsContent value="authorization">{authorizationFields}</TabsContent>
              <TabsContent value="headers">{headerRows}</TabsContent>
            </Tabs>
          ) : (
            <Tabs
              value={entry.tab}
              onValueChange={(tab) => {
                const next = ENTRY_TABS.find((value) => value === tab);
                if (next) dispatch({ type: 'setTab', entryId: entry.id, tab: next });
              }}
            >
              <TabsList
                aria-label={t('plans.apiLabel', { number })}
                className="max-sm:grid max-sm:h-auto max-sm:w-full max-sm:grid-cols-2"
              >
                {ENTRY_TABS.map((tab) => (
                  <ApiTabTrigger
                    key={tab}
                    value={tab}
                    label={t(TAB_LABELS[tab])}
                    hasError={tabHasError(tab)}
                    authorizationSet={entry.authorization.type !== 'none'}
                    testId={testId}
                  />
                ))}
              </TabsList>
              <TabsContent value="payload" data-testid={`${testId}-panel-payload`}>
                {payloadField}
              </TabsContent>
              <TabsContent value="parameters">{parameterRows}</TabsContent>
              <TabsContent value="headers">{headerRows}</TabsContent>
              <TabsContent value="authorization">{authorizationFields}</TabsContent>
            </Tabs>
          )}

          <div className="grid gap-6 @2xl:grid-cols-2">
            <section className="space-y-3" data-testid={`${testId}-extraction`}>
              <SectionTitle
                icon={Crosshair}
                title={t('plans.extractionTitle')}
                text={t('plans.extractionText')}
              />
              <div className="grid grid-cols-[minmax(0,8rem)_1fr] gap-3">
                <FormField id={fieldId('extractType')} label={t('plans.extractType')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={entry.extractType}
                      onChange={(event) => setValue('extractType')(event.target.value)}
                      data-testid={`${testId}-extractType`}
                    >
                      {EXTRACT_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {t(`plans.extract.${type}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
                {textField('extractName', t('plans.extractName'), { placeholder: 'token', mono: true })}
              </div>
              {textField('extractValue', t('plans.extractValue'), {
                placeholder: t(`plans.extractPlaceholder.${entry.extractType}`),
                mono: true,
                hint: entry.extractName.trim()
                  ? t('plans.extractUse', { name: entry.extractName.trim() })
                  : undefined,
              })}
            </section>

            <section className="space-y-3" data-testid={`${testId}-assertion`}>
              <SectionTitle
                icon={ShieldCheck}
                title={t('plans.assertionTitle')}
                text={t('plans.assertionText')}
              />
              <div className="grid grid-cols-2 gap-3">
                <FormField id={fieldId('assertionType')} label={t('plans.assertionType')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={entry.assertionType}
                      onChange={(event) => setValue('assertionType')(event.target.value)}
                      data-testid={`${testId}-assertionType`}
                    >
                      {ASSERTION_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {t(`plans.assert.${type}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
                <FormField id={fieldId('assertionOperator')} label={t('plans.assertionOperator')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={entry.assertionOperator}
                      onChange={(event) => setValue('assertionOperator')(event.target.value)}
                      data-testid={`${testId}-assertionOperator`}
                    >
                      {ASSERTION_OPERATORS.map((operator) => (
                        <option key={operator} value={operator}>
                          {t(`plans.op.${operator}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
              </div>
              <div
                className={cn(
                  'grid gap-3',
                  (entry.assertionType === 'json' || entry.assertionType === 'xml') && 'sm:grid-cols-2',
                )}
              >
                {(entry.assertionType === 'json' || entry.assertionType === 'xml') &&
                  textField('assertionPath', t('plans.assertionPath'), {
                    placeholder: entry.assertionType === 'json' ? '$.status' : '//status',
                    mono: true,
                  })}
                {textField('assertionValue', t('plans.assertionValue'), {
                  placeholder: entry.assertionType === 'status' ? '200' : 'ok',
                  mono: true,
                  // docs/design.md §4 "JSON literals": how equals reads "ada", 10, true and null.
                  hint:
                    entry.assertionType === 'json' &&
                    (entry.assertionOperator === 'equals' || entry.assertionOperator === 'not_equals')
                      ? t('plans.assertionJsonLiteralHint')
                      : undefined,
                })}
              </div>
            </section>
          </div>

          <section className="space-y-3" data-testid={`${testId}-timing`}>
            <h4 className="flex items-center gap-2 text-sm font-semibold">
              <Timer aria-hidden className="size-4 text-muted-foreground" />
              {t('plans.timingTitle')}
            </h4>
            <div className="grid gap-3 @lg:grid-cols-2 @3xl:grid-cols-4">
              {textField('thinkTime', t('plans.thinkTime'), {
                placeholder: '5s',
                hint: t('plans.thinkTimeHint'),
              })}
              {textField('transactionRate', t('plans.transactionRate'), {
                placeholder: '100',
                inputMode: 'decimal',
                hint: t('plans.transactionRateHint'),
              })}
              {textField('timeout', t('plans.timeout'), {
                placeholder: '30',
                inputMode: 'numeric',
                hint: t('plans.timeoutHint', { min: MIN_TIMEOUT_S, max: MAX_TIMEOUT_S }),
              })}
              {/* docs/adr/0027-load-profiles.md "Flows": the flow this call belongs to, blank for none. */}
              {textField('flow', t('flows.entryFlow'), { hint: t('flows.entryFlowHint') })}
            </div>
          </section>

          <ValidationItemsPanel entry={entry} dispatch={dispatch} testId={testId} />
        </div>
      )}

      {!open && entry.validations.length > 0 && (
        <div className="border-t border-border px-4 py-2">
          <Badge variant="secondary">
            {t('plans.validationsTitle')} · {entry.validations.length}
          </Badge>
        </div>
      )}
    </Card>
  );
}

/** The body editor; a method that sends no body gets a note instead (the plan sends bodies with POST, PUT, PATCH). */
function PayloadField({
  sendsBody,
  id,
  value,
  error,
  onChange,
  testId,
}: {
  sendsBody: boolean;
  id: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  testId: string;
}) {
  const t = useT();
  if (!sendsBody) {
    return (
      <p className="rounded-lg border border-dashed border-border px-3 py-3 text-[13px] text-muted-foreground">
        {t('plans.payloadOnlyBodyMethods')}
      </p>
    );
  }
  return (
    <FormField id={id} label={t('plans.payload')} hint={t('plans.payloadHint')} error={error}>
      {(control) => (
        <Textarea
          {...control}
          rows={6}
          value={value}
          spellCheck={false}
          placeholder={t('plans.payloadPlaceholder')}
          onChange={(event) => onChange(event.target.value)}
          className="font-mono text-[13px]"
          data-testid={`${testId}-payload`}
        />
      )}
    </FormField>
  );
}
