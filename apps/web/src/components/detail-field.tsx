import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** One labelled value of a plan's facts grid (a `<dl>`): a small upper-case label over the value. */
export function DetailField({
  label,
  children,
  testId,
  className,
}: {
  label: string;
  children: ReactNode;
  testId: string;
  /** Classes of the value, e.g. `num` for figures. */
  className?: string;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className={cn('truncate text-sm font-medium', className)} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
