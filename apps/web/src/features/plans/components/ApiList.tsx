import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type Modifier,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Braces, GripVertical } from 'lucide-react';
import { memo, useCallback, useMemo, type Dispatch } from 'react';
import { useConfirm } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Badge } from '@/components/ui/badge';
import { useT } from '@/i18n';
import type { FormErrors } from '../model/form-to-plan';
import { canRemoveEntry, type PlanForm, type PlanFormAction } from '../model/plan-form';
import { ApiEntryCard, type ApiCardVariant } from './ApiEntryCard';
import { createEntry, type EntryForm } from '@/features/call-editor';

const NO_FIELD_ERRORS: Record<string, string> = {};
const SEQUENCE_TOKEN = '{{sequence_number,100}}';
const VARIABLE_TOKEN = '{{name}}';

/** A sentence with a template token in it, the token set as code. */
function WithCode({ text, code }: { text: string; code: string }) {
  const at = text.indexOf(code);
  if (at === -1) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <code className="rounded bg-muted px-1 py-0.5 font-mono text-[12px] text-foreground">{code}</code>
      {text.slice(at + code.length)}
    </>
  );
}

/** Entries move along the list only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

interface SortableEntryProps {
  entry: EntryForm;
  index: number;
  count: number;
  dispatch: Dispatch<PlanFormAction>;
  errors: Record<string, string>;
  onRemove: (entry: EntryForm, index: number) => void;
  onDuplicate: (entry: EntryForm) => void;
  variant: ApiCardVariant;
}

/** Memoised: typing in one call editor re-renders that editor only. */
const SortableEntry = memo(function SortableEntry(props: SortableEntryProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: props.entry.id });
  const t = useT();
  const number = props.index + 1;
  return (
    <li>
      <ApiEntryCard
        {...props}
        setCardNode={setNodeRef}
        style={{ transform: CSS.Translate.toString(transform), transition }}
        dragging={isDragging}
        dragHandle={
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={t('plans.dragHandle', { number })}
            className="order-1 flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
            data-testid={`api-${props.index}-drag`}
          >
            <GripVertical aria-hidden className="size-4" />
          </button>
        }
      />
    </li>
  );
});

/**
 * The ordered list of API calls (docs/reference/01-authoring.md §2): drag or up/down to reorder, delete while more than one, and
 * on the script-upload screen duplicate (the copy's URL gets `_copy`, docs/reference/01-authoring.md §9, and so does its name).
 */
export function ApiList({
  form,
  dispatch,
  errors,
  disabled,
  variant = 'url',
}: {
  form: PlanForm;
  dispatch: Dispatch<PlanFormAction>;
  errors: FormErrors;
  disabled: boolean;
  variant?: ApiCardVariant;
}) {
  const t = useT();
  const notice = useNotice();
  const confirm = useConfirm();
  const sensors = useSensors(
    // A small distance keeps clicks on the handle from starting a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // A stable array while the order is unchanged, so the sortable items do not all re-render on each keystroke.
  const idsKey = form.entries.map((entry) => entry.id).join('\n');
  const ids = useMemo(() => idsKey.split('\n'), [idsKey]);
  const position = (id: UniqueIdentifier | undefined) => ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('plans.dragStarted', { number: position(active.id) }),
    onDragOver: ({ active, over }) =>
      over ? t('plans.dragMoved', { number: position(active.id), position: position(over.id) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t('plans.dragDropped', { number: position(active.id), position: position(over.id) }) : undefined,
    onDragCancel: () => t('plans.dragCancelled'),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    dispatch({ type: 'moveEntry', from: ids.indexOf(String(active.id)), to: ids.indexOf(String(over.id)) });
  };

  const count = form.entries.length;
  const remove = useCallback(
    (entry: EntryForm, index: number) => {
      // docs/reference/01-authoring.md §5: the last API cannot be removed, and the user is told why when trying.
      if (!canRemoveEntry(count)) {
        notice.error(t('plans.lastApi'));
        return;
      }
      // docs/reference/01-authoring.md §5: removal asks for confirmation, whatever the entry holds.
      const url = entry.url.trim();
      const target = url ? `${entry.method} ${url}` : entry.name.trim();
      const question = target
        ? t('plans.confirmRemoveApi', { number: index + 1, target })
        : t('plans.confirmRemoveBlankApi', { number: index + 1 });
      const request = { message: question, confirmLabel: t('plans.confirmRemoveAction'), destructive: true };
      void confirm(request).then((confirmed) => {
        if (confirmed) dispatch({ type: 'removeEntry', entryId: entry.id });
      });
    },
    [count, dispatch, t, notice, confirm],
  );
  const duplicate = useCallback(
    (entry: EntryForm) => dispatch({ type: 'duplicateEntry', entryId: entry.id }),
    [dispatch],
  );
  const scriptList = variant === 'script';

  return (
    <section aria-labelledby="apis-title" className="space-y-4" data-testid="api-list">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h2 id="apis-title" className="flex items-center gap-2 text-base font-semibold tracking-tight">
            {scriptList ? t('scriptInput.apisTitle') : t('plans.apisTitle')}
            <Badge variant="secondary" className="num" data-testid="api-count">
              {t('plans.apiCount', { count: form.entries.filter((e) => e.url.trim()).length })}
            </Badge>
          </h2>
          <p className="text-sm text-muted-foreground">
            {scriptList ? t('scriptInput.apisText') : t('plans.apisText')}
          </p>
        </div>
        <Button
          variant="outline"
          onClick={() => dispatch({ type: 'addEntry', entry: createEntry() })}
          disabled={disabled}
          className="self-start sm:self-auto"
          data-testid="add-url"
        >
          {scriptList ? t('scriptInput.addApi') : t('plans.addUrl')}
        </Button>
      </div>

      <div
        className="flex items-start gap-2 rounded-lg border border-border bg-card px-3 py-2.5 text-[13px] leading-5 text-muted-foreground"
        data-testid="sequence-hint"
      >
        <Braces aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <div className="min-w-0 space-y-0.5">
          <p>
            <WithCode text={t('plans.sequenceHint')} code={SEQUENCE_TOKEN} />
          </p>
          <p>
            <WithCode text={t('plans.variableHint')} code={VARIABLE_TOKEN} />
          </p>
        </div>
      </div>

      <fieldset disabled={disabled} className="min-w-0">
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          modifiers={[verticalOnly]}
          onDragEnd={onDragEnd}
          accessibility={{
            announcements,
            screenReaderInstructions: { draggable: t('plans.dragInstructions') },
          }}
        >
          <SortableContext items={ids} strategy={verticalListSortingStrategy}>
            <ol className="space-y-4">
              {form.entries.map((entry, index) => (
                <SortableEntry
                  key={entry.id}
                  entry={entry}
                  index={index}
                  count={form.entries.length}
                  dispatch={dispatch}
                  errors={errors.entries[entry.id] ?? NO_FIELD_ERRORS}
                  onRemove={remove}
                  onDuplicate={duplicate}
                  variant={variant}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      </fieldset>
    </section>
  );
}
