import type { LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { errorRateBadgeVariant } from '../model/format';

export interface MetricTileProps {
  label: string;
  value: string;
  /** A short note under the value ("Last second", "Over the whole run"). */
  hint?: string;
  icon: LucideIcon;
  /** Recent values drawn as a small line (live tiles). */
  trend?: readonly (number | null)[];
  /** The colour of the icon and the trend line. */
  tone?: 'primary' | 'info' | 'danger' | 'neutral' | 'success' | 'warning';
  'data-testid'?: string;
}

const TONES = {
  primary: { icon: 'bg-accent text-accent-foreground', line: 'text-primary' },
  info: { icon: 'bg-info-soft text-info-text', line: 'text-info' },
  danger: { icon: 'bg-destructive-soft text-destructive-text', line: 'text-destructive' },
  success: { icon: 'bg-success-soft text-success-text', line: 'text-success' },
  warning: { icon: 'bg-warning-soft text-warning-text', line: 'text-warning' },
  neutral: { icon: 'bg-muted text-muted-foreground', line: 'text-muted-foreground' },
} as const;

/** The tone of an error-rate tile: the colour of its badge (green, yellow, red; neutral when unknown). */
export function errorRateTone(errorRate: unknown): NonNullable<MetricTileProps['tone']> {
  const variant = errorRateBadgeVariant(errorRate);
  return variant === 'destructive' ? 'danger' : variant === 'secondary' ? 'neutral' : variant;
}

/** An SVG polyline of the last values, scaled to its own range (0 at the bottom). */
export function Sparkline({ values, className }: { values: readonly (number | null)[]; className?: string }) {
  const numbers = values.map((value) => (typeof value === 'number' && Number.isFinite(value) ? value : null));
  const max = Math.max(0, ...numbers.map((value) => value ?? 0));
  if (numbers.filter((value) => value !== null).length < 2) return null;
  const width = 100;
  const height = 28;
  const step = width / Math.max(1, numbers.length - 1);
  const segments: string[] = [];
  let current: string[] = [];
  numbers.forEach((value, index) => {
    if (value === null) {
      if (current.length > 1) segments.push(current.join(' '));
      current = [];
      return;
    }
    const y = max > 0 ? height - 2 - (value / max) * (height - 4) : height - 2;
    current.push(`${(index * step).toFixed(2)},${y.toFixed(2)}`);
  });
  if (current.length > 1) segments.push(current.join(' '));
  return (
    <svg
      aria-hidden
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      className={cn('h-7 w-full overflow-visible', className)}
    >
      {segments.map((points) => (
        <polyline
          key={points}
          points={points}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      ))}
    </svg>
  );
}

/** "78.6 req/s" → the number large and the unit small and muted (a figure without a space is one piece). */
function ValueWithUnit({ value }: { value: string }) {
  const match = /^(.*\S)\s(\S+)$/.exec(value);
  if (!match) return <>{value}</>;
  return (
    <>
      <span>{match[1]}</span> <span className="text-sm font-medium text-muted-foreground">{match[2]}</span>
    </>
  );
}

/** One figure with its unit, in the look of the dashboard's cards. */
export function MetricTile({
  label,
  value,
  hint,
  icon: Icon,
  trend,
  tone = 'primary',
  'data-testid': testId,
}: MetricTileProps) {
  const colors = TONES[tone];
  return (
    <Card className="flex min-w-0 flex-col gap-2 p-3 sm:p-4" data-testid={testId}>
      <div className="flex min-h-8 items-start justify-between gap-2">
        <p className="min-w-0 pt-0.5 text-[13px] font-medium leading-tight text-muted-foreground">{label}</p>
        <span className={cn('flex size-6 shrink-0 items-center justify-center rounded-md', colors.icon)}>
          <Icon aria-hidden className="size-3.5" />
        </span>
      </div>
      <p
        className="num flex min-w-0 flex-wrap items-baseline gap-x-1 text-xl font-semibold tracking-tight sm:text-2xl"
        data-testid={testId && `${testId}-value`}
      >
        <ValueWithUnit value={value} />
      </p>
      {trend && <Sparkline values={trend} className={cn('mt-auto', colors.line)} />}
      {hint && <p className={cn('truncate text-xs text-muted-foreground', !trend && 'mt-auto')}>{hint}</p>}
    </Card>
  );
}
