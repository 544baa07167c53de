import { Check, X } from 'lucide-react';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';

/** A rule's or an action's outcome: a tick or a cross in its status colour, named "Passed" or "Failed". */
export function PassMark({ passed }: { passed: boolean }) {
  const t = useT();
  const Mark = passed ? Check : X;
  return (
    <span
      role="img"
      aria-label={t(passed ? 'functional.result.passed' : 'functional.result.failed')}
      className={cn(
        'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full',
        passed ? 'bg-success-soft text-success-text' : 'bg-destructive-soft text-destructive-text',
      )}
    >
      <Mark aria-hidden className="size-3.5" />
    </span>
  );
}
