import {
  CircleCheck,
  CircleStop,
  CircleX,
  Clock,
  Hourglass,
  LoaderCircle,
  PowerOff,
  TimerOff,
} from 'lucide-react';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { Badge, type BadgeProps } from './ui/badge';

type Variant = NonNullable<BadgeProps['variant']>;

interface Known {
  variant: Variant;
  label: MessageKey;
  icon: typeof CircleCheck;
  /** Still moving towards a result: the icon turns. */
  busy?: boolean;
}

const STATUS: Record<string, Known> = {
  completed: { variant: 'success', label: 'status.completed', icon: CircleCheck },
  success: { variant: 'success', label: 'status.completed', icon: CircleCheck },
  passed: { variant: 'success', label: 'status.completed', icon: CircleCheck },
  running: { variant: 'info', label: 'status.running', icon: LoaderCircle, busy: true },
  // docs/reference/02-running.md §4 colours only completed, running, failed and stopped; "others grey".
  starting: { variant: 'secondary', label: 'status.starting', icon: Hourglass },
  processing: { variant: 'secondary', label: 'status.processing', icon: LoaderCircle, busy: true },
  timeout: { variant: 'secondary', label: 'status.timeout', icon: TimerOff },
  pending: { variant: 'secondary', label: 'status.pending', icon: Clock },
  queued: { variant: 'secondary', label: 'status.pending', icon: Clock },
  failed: { variant: 'destructive', label: 'status.failed', icon: CircleX },
  error: { variant: 'destructive', label: 'status.failed', icon: CircleX },
  stopped: { variant: 'warning', label: 'status.stopped', icon: CircleStop },
  // Ended early by a server restart, as a stopped run by its user (docs/adr/0016-crash-recovery.md).
  interrupted: { variant: 'warning', label: 'status.interrupted', icon: PowerOff },
};

/** A run status in the status colours: green completed, blue running, amber stopped or interrupted, red failed, others grey. */
export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  const known = STATUS[status.toLowerCase()];
  if (!known) {
    return <Badge variant="secondary">{status || t('status.unknown')}</Badge>;
  }
  const Icon = known.icon;
  return (
    <Badge variant={known.variant} data-status={status.toLowerCase()}>
      <Icon aria-hidden className={known.busy ? 'animate-spin' : undefined} />
      {t(known.label)}
    </Badge>
  );
}
