import type { HttpMethod } from '@aqa/plan';
import { ArrowDown, ArrowUp, ChevronDown, CopyPlus, Trash2, type LucideIcon } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { TabsTrigger } from '@/components/ui/tabs';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * The parts every API card is made of — the performance call editor (docs/reference/01-authoring.md §2)
 * and the functional API editor (docs/reference/02-running.md §2) — so both read and behave alike. The
 * cards word their labels themselves.
 */

/** Method colours follow API tools' habit (GET green, POST amber…) but stay quiet: text only. */
const METHOD_TONE: Partial<Record<string, string>> = {
  GET: 'text-success-text',
  POST: 'text-warning-text',
  PUT: 'text-info-text',
  PATCH: 'text-info-text',
  DELETE: 'text-destructive-text',
};

export function methodTone(method: string): string | undefined {
  return METHOD_TONE[method];
}

/** The method drop-down, in the method's colour. */
export function MethodSelect({
  value,
  methods,
  onChange,
  label,
  className,
  testId,
}: {
  value: HttpMethod;
  methods: readonly HttpMethod[];
  onChange: (method: HttpMethod) => void;
  label: string;
  className?: string;
  testId: string;
}) {
  return (
    <NativeSelect
      aria-label={label}
      value={value}
      onChange={(event) => {
        const method = methods.find((item) => item === event.target.value);
        if (method) onChange(method);
      }}
      className={cn('shrink-0', className)}
      selectClassName={cn('font-mono font-semibold', methodTone(value))}
      data-testid={testId}
    >
      {methods.map((method) => (
        <option key={method} value={method}>
          {method}
        </option>
      ))}
    </NativeSelect>
  );
}

export interface ApiCardControlLabels {
  moveUp: string;
  moveDown: string;
  /** Needed when the card offers duplicate (`onDuplicate`). */
  duplicate?: string;
  remove: string;
  expand: string;
  collapse: string;
}

/**
 * Move up, move down, duplicate (when offered), remove and show/hide details, in the card's header. A
 * remove that is refused (`removeRefusal`) stays pressable but marked, its tooltip saying why: the screen
 * answers the press with its own alert.
 */
export function ApiCardControls({
  index,
  count,
  testId,
  labels,
  onMove,
  onDuplicate,
  onRemove,
  removeRefusal,
  open,
  onToggle,
  detailsId,
  className,
}: {
  index: number;
  count: number;
  testId: string;
  labels: ApiCardControlLabels;
  onMove: (from: number, to: number) => void;
  onDuplicate?: () => void;
  onRemove: () => void;
  removeRefusal?: string;
  open: boolean;
  onToggle: () => void;
  /** The id of the card's details, which the toggle shows and hides. */
  detailsId: string;
  className?: string;
}) {
  const removeButton = (
    <Button
      variant="ghost"
      size="icon-sm"
      aria-label={labels.remove}
      aria-disabled={removeRefusal ? 'true' : undefined}
      onClick={onRemove}
      className="text-muted-foreground hover:text-destructive"
      data-testid={`${testId}-remove`}
    >
      <Trash2 />
    </Button>
  );
  // Moving a card moves its DOM node, which drops the keyboard focus: the arrow pressed gets it back
  // (the other arrow when the card reached the end), so it can be pressed again.
  const controls = useRef<HTMLDivElement>(null);
  const move = (to: number, direction: 'up' | 'down') => {
    onMove(index, to);
    requestAnimationFrame(() => {
      const box = controls.current;
      if (!box || box.contains(document.activeElement)) return;
      const arrow = (which: 'up' | 'down') =>
        // By the ending: the card's number, and so its test id, changed with the move.
        box.querySelector<HTMLButtonElement>(`[data-testid$="-${which}"]:not(:disabled)`);
      (arrow(direction) ?? arrow(direction === 'down' ? 'up' : 'down'))?.focus();
    });
  };
  return (
    <div ref={controls} className={cn('flex items-center gap-0.5', className)}>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={labels.moveUp}
        disabled={index <= 0}
        onClick={() => move(index - 1, 'up')}
        data-testid={`${testId}-up`}
      >
        <ArrowUp />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={labels.moveDown}
        disabled={index >= count - 1}
        onClick={() => move(index + 1, 'down')}
        data-testid={`${testId}-down`}
      >
        <ArrowDown />
      </Button>
      {onDuplicate && (
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={labels.duplicate}
          onClick={onDuplicate}
          data-testid={`${testId}-duplicate`}
        >
          <CopyPlus />
        </Button>
      )}
      {removeRefusal ? <Tooltip content={removeRefusal}>{removeButton}</Tooltip> : removeButton}
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={open ? labels.collapse : labels.expand}
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={onToggle}
        data-testid={`${testId}-toggle`}
      >
        <ChevronDown className={cn('transition-transform', !open && '-rotate-90')} />
      </Button>
    </div>
  );
}

/** A card tab, dotted red when a field in it has a problem and blue when it holds an authorization. */
export function ApiTabTrigger({
  value,
  label,
  hasError,
  authorizationSet,
  testId,
}: {
  value: string;
  label: string;
  hasError: boolean;
  authorizationSet: boolean;
  testId: string;
}) {
  return (
    <TabsTrigger value={value} data-testid={`${testId}-tab-${value}`}>
      {label}
      {hasError && <span aria-hidden className="size-1.5 rounded-full bg-destructive" />}
      {value === 'authorization' && authorizationSet && (
        <span aria-hidden className="size-1.5 rounded-full bg-primary" />
      )}
    </TabsTrigger>
  );
}

/** A card section's heading: icon, title (and a count beside it), and a line saying what it is for. */
export function SectionTitle({
  icon: Icon,
  title,
  text,
  id,
  badge,
}: {
  icon: LucideIcon;
  title: string;
  text: string;
  id?: string;
  badge?: ReactNode;
}) {
  return (
    <div className="space-y-0.5">
      <h4 id={id} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
        <Icon aria-hidden className="size-4 text-muted-foreground" />
        {title}
        {badge}
      </h4>
      <p className="text-[13px] leading-5 text-muted-foreground">{text}</p>
    </div>
  );
}
