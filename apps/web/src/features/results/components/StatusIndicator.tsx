import {
  CircleCheck,
  CircleStop,
  CircleX,
  Clock,
  LoaderCircle,
  PowerOff,
  SearchX,
  type LucideIcon,
} from 'lucide-react';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import type { LivePhase } from '../model/status-machine';

const PHASES: Record<
  LivePhase,
  { label: MessageKey; icon: LucideIcon; variant: NonNullable<BadgeProps['variant']>; spin?: boolean }
> = {
  starting: { label: 'results.phase.starting', icon: LoaderCircle, variant: 'info', spin: true },
  // Neutral: the run's stored status is not known yet (docs/reference/02-running.md §4).
  loading: { label: 'results.phase.loading', icon: LoaderCircle, variant: 'secondary', spin: true },
  running: { label: 'results.phase.running', icon: LoaderCircle, variant: 'info', spin: true },
  processing: { label: 'results.phase.processing', icon: LoaderCircle, variant: 'info', spin: true },
  completed: { label: 'results.phase.completed', icon: CircleCheck, variant: 'success' },
  failed: { label: 'results.phase.failed', icon: CircleX, variant: 'destructive' },
  stopped: { label: 'results.phase.stopped', icon: CircleStop, variant: 'warning' },
  timeout: { label: 'results.phase.timeout', icon: Clock, variant: 'warning' },
  notFound: { label: 'results.phase.notFound', icon: SearchX, variant: 'secondary' },
};

/** A stopped run that a server restart interrupted (docs/adr/0016-crash-recovery.md): its own words and icon. */
const INTERRUPTED = { label: 'results.phase.interrupted', icon: PowerOff } as const;

/** The status icon and label of the live screen, in the status colours (docs/design.md §6). */
export function StatusIndicator({ phase, interrupted = false }: { phase: LivePhase; interrupted?: boolean }) {
  const t = useT();
  const shown = PHASES[phase];
  const {
    label,
    icon: Icon,
    variant,
    spin,
  } = phase === 'stopped' && interrupted ? { ...shown, ...INTERRUPTED } : shown;
  return (
    <Badge
      variant={variant}
      className="px-2.5 py-1 text-[13px]"
      data-testid="result-status"
      data-phase={phase}
      role="status"
    >
      <Icon aria-hidden className={spin ? 'size-3.5 animate-spin' : 'size-3.5'} />
      {t(label)}
    </Badge>
  );
}
