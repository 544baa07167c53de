import type { ReactNode } from 'react';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

export interface ChartCardProps {
  title: ReactNode;
  description?: ReactNode;
  /** Number of data points drawn (a `data-points` attribute, for tests and for "No data"). */
  points: number;
  emptyText: ReactNode;
  children: ReactNode;
  className?: string;
  /** Classes of the chart's box (its height). */
  bodyClassName?: string;
  /** Accessible summary of what the chart shows. */
  label: string;
  'data-testid'?: string;
  footer?: ReactNode;
}

/** A titled card around one chart; shows `emptyText` instead of an empty chart. */
export function ChartCard({
  title,
  description,
  points,
  emptyText,
  children,
  className,
  bodyClassName,
  label,
  footer,
  'data-testid': testId,
}: ChartCardProps) {
  return (
    <Card className={cn('flex min-w-0 flex-col', className)} data-testid={testId} data-points={points}>
      <CardHeader className="pb-3">
        <CardTitle as="h3">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <div className="min-w-0 flex-1 px-4 pb-5 sm:px-6">
        {points > 0 ? (
          <div role="img" aria-label={label} className={cn('relative h-64 w-full min-w-0', bodyClassName)}>
            {children}
          </div>
        ) : (
          <div
            className={cn(
              'flex h-64 items-center justify-center rounded-lg border border-dashed border-border px-4 text-center text-sm text-muted-foreground',
              bodyClassName,
            )}
          >
            {emptyText}
          </div>
        )}
        {footer}
      </div>
    </Card>
  );
}
