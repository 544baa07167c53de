import { CircleCheck, CircleX, FolderKanban, LoaderCircle } from 'lucide-react';
import { CounterTiles, type CounterTile } from '@/components/counter-tiles';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import type { DashboardCounters as Counters } from '../../queries/history-api';

const COUNTERS: readonly CounterTile<keyof Counters>[] = [
  {
    key: 'total_plans',
    label: 'history.counters.totalPlans',
    icon: FolderKanban,
    tone: 'bg-accent text-accent-foreground',
  },
  {
    key: 'completed_tests',
    label: 'history.counters.completed',
    icon: CircleCheck,
    tone: 'bg-success-soft text-success-text',
  },
  {
    key: 'failed_tests',
    label: 'history.counters.failed',
    icon: CircleX,
    tone: 'bg-destructive-soft text-destructive-text',
  },
  {
    key: 'running_tests',
    label: 'history.counters.running',
    icon: LoaderCircle,
    tone: 'bg-info-soft text-info-text',
  },
];

/** docs/reference/02-running.md §2: Total Plans, Completed Tests, Failed Tests, Running Tests — over all the user's plans. */
export function DashboardCounters({ counters }: { counters: Counters | null }) {
  const { locale } = useI18n();
  return (
    <CounterTiles
      tiles={COUNTERS}
      value={(key) => formatCount(counters?.[key], locale)}
      data-testid="dashboard-counters"
    />
  );
}
