import { CircleCheck, CircleStop, CircleX, Clock, LoaderCircle } from 'lucide-react';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { Badge, type BadgeProps } from './ui/badge';

type Variant = NonNullable<BadgeProps['variant']>;

const STATUS: Record<string, { variant: Variant; label: MessageKey; icon: typeof CircleCheck }> = {
  completed: { variant: 'success', label: 'status.completed', icon: CircleCheck },
  success: { variant: 'success', label: 'status.completed', icon: CircleCheck },
  passed: { variant: 'success', label: 'status.completed', icon: CircleCheck },
  running: { variant: 'info', label: 'status.running', icon: LoaderCircle },
  pending: { variant: 'secondary', label: 'status.pending', icon: Clock },
  queued: { variant: 'secondary', label: 'status.pending', icon: Clock },
  failed: { variant: 'destructive', label: 'status.failed', icon: CircleX },
  error: { variant: 'destructive', label: 'status.failed', icon: CircleX },
  stopped: { variant: 'warning', label: 'status.stopped', icon: CircleStop },
};

/** A run status in the status colours: green completed, blue running, amber stopped, red failed. */
export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  const known = STATUS[status.toLowerCase()];
  if (!known) {
    return <Badge variant="secondary">{status || t('status.unknown')}</Badge>;
  }
  const Icon = known.icon;
  return (
    <Badge variant={known.variant} data-status={status.toLowerCase()}>
      <Icon aria-hidden className={known.variant === 'info' ? 'animate-spin' : undefined} />
      {t(known.label)}
    </Badge>
  );
}
