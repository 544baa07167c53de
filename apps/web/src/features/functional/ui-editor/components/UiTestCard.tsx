import { UI_VALIDATION_TYPES, type FunctionalValidationType } from '@aqa/plan';
import { GripVertical } from 'lucide-react';
import { useState, type Dispatch, type HTMLAttributes } from 'react';
import { Card } from '@/components/ui/card';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import {
  CallCardFoldedProblem,
  CallCardSummary,
  CallNameUrlFields,
  useCallCardProblems,
} from '../../editor/components/CallCardParts';
import { ValidationRulesPanel, type RuleTypeText } from '../../editor/components/ValidationRulesPanel';
import type { FunctionalApiForm, FunctionalFormAction } from '../../editor/model/functional-form';
import { problemsUnder } from '../../editor/model/plan-check';
import { isUiRuleType, uiMethodsFor } from '../model/ui-form';
import { UiActionsPanel } from './UiActionsPanel';
import { ApiCardControls } from '@/features/call-editor';

export interface UiTestCardProps {
  page: FunctionalApiForm;
  index: number;
  count: number;
  dispatch: Dispatch<FunctionalFormAction>;
  /** This UI test's problems, by the card's field keys (see plan-check.ts). */
  errors: Record<string, string>;
  onRemove: (page: FunctionalApiForm, index: number) => void;
  /** The drag handle's props (see useDragReorder); it carries this card. */
  dragHandle: HTMLAttributes<HTMLElement> & { draggable: boolean };
  dragging: boolean;
  /** Another card is dragged over this one. */
  dropTarget: boolean;
  disabled?: boolean;
}

/**
 * One UI test of the list (docs/reference/02-running.md §2 "UI tests"): the page's name,
 * method (GET, or POST) and URL, and its validations — contains_text, element_exists (CSS or XPath) and
 * page_title — in the API editor's rule form, and its action steps (UiActionsPanel, docs/adr/0030-recorded-ui-tests.md
 * §5). A handle drags it; the arrows move it (disabled at the ends).
 */
export function UiTestCard({
  page,
  index,
  count,
  dispatch,
  errors,
  onRemove,
  dragHandle,
  dragging,
  dropTarget,
  disabled,
}: UiTestCardProps) {
  const t = useT();
  const [open, setOpen] = useState(true);
  const { entry } = page;
  const number = index + 1;
  const testId = `ui-test-${index}`;
  const fieldId = (field: string) => `${entry.id}-${field}`;
  const { error, firstError } = useCallCardProblems(errors);
  const typeText = (type: FunctionalValidationType): RuleTypeText =>
    isUiRuleType(type)
      ? {
          label: t(`functional.ui.rt.${type}`),
          hint: t(`functional.ui.rh.${type}`),
          placeholder: t(`functional.ui.rp.${type}`),
        }
      : { label: type, hint: '', placeholder: '' };

  return (
    <Card
      data-drag-card
      className={cn(
        '@container relative transition-shadow',
        disabled && 'pointer-events-none opacity-60',
        dragging && 'opacity-50',
        dropTarget && !dragging && 'ring-2 ring-primary/60',
      )}
      data-testid={testId}
      data-entry-id={entry.id}
      role="group"
      aria-label={t('functional.ui.testLabel', { number })}
    >
      <div className="flex items-center gap-2 px-3 py-3 sm:px-4">
        <span
          {...dragHandle}
          role="img"
          aria-label={t('functional.ui.dragHandle', { number })}
          title={t('functional.ui.dragHandle', { number })}
          className="flex size-8 shrink-0 cursor-grab items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-muted hover:text-foreground active:cursor-grabbing max-sm:hidden"
          data-testid={`${testId}-drag`}
        >
          <GripVertical aria-hidden className="size-4" />
        </span>
        <CallCardSummary
          entry={entry}
          number={number}
          open={open}
          testId={testId}
          unnamed={t('functional.ui.unnamedTest')}
          methodClassName="w-11"
        />
        <ApiCardControls
          index={index}
          count={count}
          testId={testId}
          labels={{
            moveUp: t('functional.ui.moveUp'),
            moveDown: t('functional.ui.moveDown'),
            remove: t('functional.ui.remove'),
            expand: t('functional.editor.expand'),
            collapse: t('functional.editor.collapse'),
          }}
          onMove={(from, to) => dispatch({ type: 'moveApi', from, to })}
          onRemove={() => onRemove(page, index)}
          open={open}
          onToggle={() => setOpen((value) => !value)}
          detailsId={fieldId('details')}
          className="shrink-0"
        />
      </div>
      {!open && <CallCardFoldedProblem testId={testId} problem={firstError} />}

      {open && (
        <div id={fieldId('details')} className="space-y-6 border-t border-border px-3 pb-5 pt-4 sm:px-4">
          <CallNameUrlFields
            entry={entry}
            dispatch={dispatch}
            testId={testId}
            error={error}
            methods={uiMethodsFor(entry.method)}
            methodClassName="w-[6.5rem]"
            text={{
              name: t('functional.ui.name'),
              namePlaceholder: t('functional.ui.namePlaceholder'),
              url: t('functional.ui.url'),
              urlPlaceholder: t('functional.ui.urlPlaceholder'),
              method: t('functional.ui.method'),
            }}
          />

          <UiActionsPanel
            page={page}
            dispatch={dispatch}
            errors={problemsUnder(errors, 'action.')}
            testId={testId}
          />

          <ValidationRulesPanel
            api={page}
            dispatch={dispatch}
            errors={problemsUnder(errors, 'rule.')}
            testId={testId}
            types={UI_VALIDATION_TYPES}
            typeText={typeText}
            labels={{
              title: t('functional.ui.rulesTitle'),
              text: t('functional.ui.rulesText'),
              empty: t('functional.ui.noRules'),
            }}
          />
        </div>
      )}
    </Card>
  );
}
