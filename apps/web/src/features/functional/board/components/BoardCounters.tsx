import { CircleCheck, CircleX, FlaskConical, LoaderCircle, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';
import type { BoardCounters as Counters } from '../model/counters';

const COUNTERS: { key: keyof Counters; label: MessageKey; icon: LucideIcon; tone: string }[] = [
  {
    key: 'total',
    label: 'functional.board.totalTests',
    icon: FlaskConical,
    tone: 'bg-accent text-accent-foreground',
  },
  {
    key: 'completed',
    label: 'functional.board.completed',
    icon: CircleCheck,
    tone: 'bg-success-soft text-success-text',
  },
  {
    key: 'failed',
    label: 'functional.board.failed',
    icon: CircleX,
    tone: 'bg-destructive-soft text-destructive-text',
  },
  {
    key: 'running',
    label: 'functional.board.running',
    icon: LoaderCircle,
    tone: 'bg-info-soft text-info-text',
  },
];

/** docs/reference/02-running.md §2: Total Tests, Completed, Failed, Running (the performance counters' look). */
export function BoardCounters({ counters }: { counters: Counters | null }) {
  const { t, locale } = useI18n();
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="functional-counters">
      {COUNTERS.map(({ key, label, icon: Icon, tone }) => (
        <li key={key}>
          <Card className="flex items-center gap-3 p-4">
            <span className={cn('flex size-9 shrink-0 items-center justify-center rounded-lg', tone)}>
              <Icon aria-hidden className="size-4" />
            </span>
            <div className="min-w-0">
              <p className="text-xs font-medium leading-4 text-muted-foreground">{t(label)}</p>
              <p className="num text-xl font-semibold tracking-tight" data-testid={`counter-${key}`}>
                {formatCount(counters?.[key], locale)}
              </p>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
