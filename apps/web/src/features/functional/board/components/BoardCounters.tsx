import { CircleCheck, CircleX, FlaskConical, LoaderCircle } from 'lucide-react';
import { CounterTiles, type CounterTile } from '@/components/counter-tiles';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import type { BoardCounters as Counters } from '../model/counters';

const COUNTERS: readonly CounterTile<keyof Counters>[] = [
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
  const { locale } = useI18n();
  return (
    <CounterTiles
      tiles={COUNTERS}
      value={(key) => formatCount(counters?.[key], locale)}
      data-testid="functional-counters"
    />
  );
}
