import {
  UI_LOCATOR_KINDS,
  UI_WAIT_STATES,
  locatorText,
  uiActionTarget,
  uiActionValue,
  type UiLocatorKind,
  type UiWaitState,
} from '@aqa/plan';
import { ArrowDown, ArrowUp, MousePointerClick, Plus, X } from 'lucide-react';
import { useState, type Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useT } from '@/i18n';
import { translateFunctionalMessage } from '../../editor/model/messages';
import type { FunctionalApiForm, FunctionalFormAction } from '../../editor/model/functional-form';
import {
  EDITABLE_ACTION_KINDS,
  isEditableKind,
  keptOptions,
  kindFields,
  type ActionFormPatch,
  type EditableActionKind,
  type UiActionForm,
  type UiActionsEdit,
  valueKindOf,
} from '../model/action-form';
import { SectionTitle } from '@/features/call-editor';

export interface UiActionsPanelProps {
  page: FunctionalApiForm;
  dispatch: Dispatch<FunctionalFormAction>;
  /** The steps' problems, by `<actionId>.<field>` (ui-form.ts). */
  errors: Record<string, string>;
  testId: string;
}

/**
 * A UI test's action steps (docs/adr/0030-recorded-ui-tests.md §6 "The editor"): each step's kind and
 * fields — locator (with its recorded fallbacks kept), value, variable, wait state and time — a
 * "Continue on failure" switch on assertions, move and remove; a kind the editor has no fields for shows
 * its description and is kept as recorded. "Add step" appends a step of the chosen kind.
 */
export function UiActionsPanel({ page, dispatch, errors, testId }: UiActionsPanelProps) {
  const t = useT();
  const entryId = page.entry.id;
  const actions = page.actions ?? [];
  const [newKind, setNewKind] = useState<EditableActionKind>('click');
  const edit = (change: UiActionsEdit) => dispatch({ type: 'uiActions', entryId, edit: change });
  const kindLabel = (kind: EditableActionKind) => t(`functional.ui.ak.${kind}`);

  return (
    <section className="space-y-3" aria-labelledby={`${entryId}-actions`} data-testid={`${testId}-actions`}>
      <SectionTitle
        id={`${entryId}-actions`}
        icon={MousePointerClick}
        title={t('functional.ui.actionsTitle')}
        text={t('functional.ui.actionsText')}
        badge={
          actions.length > 0 && (
            <Badge variant="secondary" className="num" data-testid={`${testId}-action-count`}>
              {t('functional.ui.actionCount', { count: actions.length })}
            </Badge>
          )
        }
      />

      {actions.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-3 py-2.5 text-[13px] text-muted-foreground">
          {t('functional.ui.noActions')}
        </p>
      ) : (
        <ol className="divide-y divide-border rounded-lg border border-border">
          {actions.map((action, index) => (
            <ActionRow
              key={action.id}
              action={action}
              index={index}
              count={actions.length}
              edit={edit}
              errors={errors}
              testId={`${testId}-action-${index}`}
              kindLabel={kindLabel}
            />
          ))}
        </ol>
      )}

      <div className="flex flex-wrap items-center gap-2 rounded-lg bg-muted/40 p-3">
        <NativeSelect
          aria-label={t('functional.ui.newActionKind')}
          value={newKind}
          onChange={(event) => {
            const kind = EDITABLE_ACTION_KINDS.find((value) => value === event.target.value);
            if (kind) setNewKind(kind);
          }}
          className="w-56"
          data-testid={`${testId}-new-action-kind`}
        >
          {EDITABLE_ACTION_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {kindLabel(kind)}
            </option>
          ))}
        </NativeSelect>
        <Button
          variant="outline"
          onClick={() => edit({ type: 'add', kind: newKind })}
          data-testid={`${testId}-add-action`}
        >
          <Plus />
          {t('functional.ui.addAction')}
        </Button>
      </div>
    </section>
  );
}

interface ActionRowProps {
  action: UiActionForm;
  index: number;
  count: number;
  edit: (change: UiActionsEdit) => void;
  errors: Record<string, string>;
  testId: string;
  kindLabel: (kind: EditableActionKind) => string;
}

function ActionRow({ action, index, count, edit, errors, testId, kindLabel }: ActionRowProps) {
  const t = useT();
  const number = index + 1;
  const set = (patch: ActionFormPatch) => edit({ type: 'set', id: action.id, patch });
  const error = (field: string) => {
    const message = errors[`${action.id}.${field}`];
    return message ? translateFunctionalMessage(message, t) : undefined;
  };
  const fieldId = (field: string) => `${action.id}-${field}`;
  const recorded = action.original;
  const path = recorded?.source.path ?? '';
  const fallbacks =
    recorded !== null && 'locators' in recorded && recorded.kind === action.kind
      ? (recorded.locators ?? []).slice(1)
      : [];
  const firstLocator = recorded !== null && 'locators' in recorded ? recorded.locators?.[0] : undefined;
  const kept = keptOptions(recorded, action.kind);

  return (
    <li
      className="space-y-2 px-3 py-2.5"
      data-testid={testId}
      aria-label={t('functional.ui.actionLabel', { number })}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="num flex h-6 min-w-6 shrink-0 items-center justify-center rounded-md bg-muted px-1.5 text-xs font-semibold">
          {number}
        </span>
        {isEditableKind(action.kind) ? (
          <NativeSelect
            aria-label={t('functional.ui.actionKind', { number })}
            value={action.kind}
            onChange={(event) => {
              const kind = EDITABLE_ACTION_KINDS.find((value) => value === event.target.value);
              if (kind) edit({ type: 'setKind', id: action.id, kind });
            }}
            className="min-w-0 flex-1 sm:w-52 sm:flex-none"
            data-testid={`${testId}-kind`}
          >
            {EDITABLE_ACTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabel(kind)}
              </option>
            ))}
          </NativeSelect>
        ) : (
          <Badge variant="outline" className="font-mono" data-testid={`${testId}-kind-badge`}>
            {action.kind}
          </Badge>
        )}
        {path !== '' && (
          <span
            className="order-last min-w-0 basis-full truncate text-[12px] text-muted-foreground sm:order-none sm:basis-auto sm:flex-1"
            title={path}
          >
            {t('functional.ui.from', { path })}
          </span>
        )}
        <span className="ml-auto flex shrink-0 items-center gap-1">
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={t('functional.ui.actionUp', { number })}
            disabled={index === 0}
            onClick={() => edit({ type: 'move', from: index, to: index - 1 })}
            data-testid={`${testId}-up`}
          >
            <ArrowUp />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={t('functional.ui.actionDown', { number })}
            disabled={index === count - 1}
            onClick={() => edit({ type: 'move', from: index, to: index + 1 })}
            data-testid={`${testId}-down`}
          >
            <ArrowDown />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={t('functional.ui.actionRemove', { number })}
            onClick={() => edit({ type: 'remove', id: action.id })}
            className="text-muted-foreground hover:text-destructive"
            data-testid={`${testId}-remove`}
          >
            <X />
          </Button>
        </span>
      </div>

      {isEditableKind(action.kind) ? (
        <EditableFields
          action={action}
          kind={action.kind}
          set={set}
          error={error}
          fieldId={fieldId}
          testId={testId}
        />
      ) : (
        recorded !== null && (
          <div className="space-y-1" data-testid={`${testId}-read-only`}>
            <p className="break-all font-mono text-[13px]" data-testid={`${testId}-description`}>
              {[uiActionTarget(recorded), uiActionValue(recorded)].filter((part) => part).join(' → ')}
            </p>
            <p className="text-[12px] text-muted-foreground">
              <Badge variant="secondary" className="mr-2">
                {t('functional.ui.readOnly')}
              </Badge>
              {t('functional.ui.readOnlyHint')}
            </p>
          </div>
        )
      )}

      {(fallbacks.length > 0 || (firstLocator?.within?.length ?? 0) > 0 || kept.length > 0) &&
        isEditableKind(action.kind) && (
          <div className="flex flex-wrap gap-2 text-[12px]">
            {fallbacks.length > 0 && (
              <Badge
                variant="outline"
                title={t('functional.ui.fallbacksHint', { list: fallbacks.map(locatorText).join(' | ') })}
                data-testid={`${testId}-fallbacks`}
              >
                {t('functional.ui.fallbacks', { count: fallbacks.length })}
              </Badge>
            )}
            {firstLocator?.within && firstLocator.within.length > 0 && (
              <Badge variant="outline">
                {t('functional.ui.within', { list: firstLocator.within.join(' › ') })}
              </Badge>
            )}
            {kept.length > 0 && (
              <Badge variant="outline" data-testid={`${testId}-kept`}>
                {t('functional.ui.kept', { list: kept.join(', ') })}
              </Badge>
            )}
          </div>
        )}
    </li>
  );
}

interface EditableFieldsProps {
  action: UiActionForm;
  kind: EditableActionKind;
  set: (patch: ActionFormPatch) => void;
  error: (field: string) => string | undefined;
  fieldId: (field: string) => string;
  testId: string;
}

/** The fields of an editable kind, each with its problem under it. */
function EditableFields({ action, kind, set, error, fieldId, testId }: EditableFieldsProps) {
  const t = useT();
  const fields = kindFields(kind);
  const valueKind = valueKindOf(kind);
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      {fields.locator && (
        <div className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] gap-2 sm:col-span-2">
          <FormField id={fieldId('by')} label={t('functional.ui.locatorBy')}>
            {(control) => (
              <NativeSelect
                {...control}
                value={action.by}
                onChange={(event) => {
                  const by = UI_LOCATOR_KINDS.find((value) => value === event.target.value);
                  if (by) set({ by: by satisfies UiLocatorKind });
                }}
                data-testid={`${testId}-by`}
              >
                {UI_LOCATOR_KINDS.map((by) => (
                  <option key={by} value={by}>
                    {t(`functional.ui.lb.${by}`)}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <FormField
            id={fieldId('locator')}
            label={t('functional.ui.locator')}
            error={error('locator')}
            errorTestId={`${testId}-locator-error`}
          >
            {(control) => (
              <Input
                {...control}
                value={action.locator}
                placeholder={t('functional.ui.locatorPlaceholder')}
                spellCheck={false}
                className="font-mono text-[13px]"
                onChange={(event) => set({ locator: event.target.value })}
                data-testid={`${testId}-locator`}
              />
            )}
          </FormField>
          {action.by === 'role' && (
            <FormField id={fieldId('role-name')} label={t('functional.ui.roleName')} className="col-span-2">
              {(control) => (
                <Input
                  {...control}
                  value={action.roleName}
                  onChange={(event) => set({ roleName: event.target.value })}
                  data-testid={`${testId}-role-name`}
                />
              )}
            </FormField>
          )}
        </div>
      )}
      {valueKind !== null && (
        <FormField
          id={fieldId('value')}
          label={t(`functional.ui.av.${valueKind}`)}
          error={error('value')}
          errorTestId={`${testId}-value-error`}
          className="sm:col-span-2"
        >
          {(control) => (
            <Input
              {...control}
              value={action.value}
              placeholder={t(`functional.ui.avp.${valueKind}`)}
              spellCheck={false}
              className="font-mono text-[13px]"
              onChange={(event) => set({ value: event.target.value })}
              data-testid={`${testId}-value`}
            />
          )}
        </FormField>
      )}
      {fields.variable && (
        <FormField
          id={fieldId('variable')}
          label={t('functional.ui.variable')}
          error={error('variable')}
          errorTestId={`${testId}-variable-error`}
        >
          {(control) => (
            <Input
              {...control}
              value={action.variable}
              placeholder={t('functional.ui.variablePlaceholder')}
              spellCheck={false}
              className="font-mono text-[13px]"
              onChange={(event) => set({ variable: event.target.value })}
              data-testid={`${testId}-variable`}
            />
          )}
        </FormField>
      )}
      {fields.state && (
        <FormField id={fieldId('state')} label={t('functional.ui.waitState')}>
          {(control) => (
            <NativeSelect
              {...control}
              value={action.state}
              onChange={(event) => {
                const state = UI_WAIT_STATES.find((value) => value === event.target.value);
                if (state) set({ state: state satisfies UiWaitState });
              }}
              data-testid={`${testId}-state`}
            >
              {UI_WAIT_STATES.map((state) => (
                <option key={state} value={state}>
                  {t(`functional.ui.ws.${state}`)}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      )}
      {fields.ms && (
        <FormField
          id={fieldId('ms')}
          label={kind === 'pauseFor' ? t('functional.ui.pauseMs') : t('functional.ui.timeoutMs')}
          error={error('ms')}
          errorTestId={`${testId}-ms-error`}
        >
          {(control) => (
            <Input
              {...control}
              value={action.ms}
              inputMode="numeric"
              className="num"
              onChange={(event) => set({ ms: event.target.value })}
              data-testid={`${testId}-ms`}
            />
          )}
        </FormField>
      )}
      {fields.soft && (
        <label className="flex items-center gap-2 text-sm sm:col-span-2" title={t('functional.ui.softHint')}>
          <input
            type="checkbox"
            checked={action.soft}
            onChange={(event) => set({ soft: event.target.checked })}
            className="size-4 accent-primary"
            data-testid={`${testId}-soft`}
          />
          {t('functional.ui.soft')}
        </label>
      )}
    </div>
  );
}
