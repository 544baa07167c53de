import { CircleExclamationPoint, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';

export function LoadingBlock({ text, className }: { text: string; className?: string }) {
  return (
    <div
      role="status"
      className={cn('flex items-center justify-center gap-2 py-12 text-sm text-muted-foreground', className)}
    >
      <Spinner />
      {text}
    </div>
  );
}

export function EmptyBlock({
  icon: Icon,
  title,
  text,
  action,
  className,
  'data-testid': testId,
}: {
  icon: LucideIcon;
  title: string;
  text?: string;
  action?: ReactNode;
  className?: string;
  'data-testid'?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center px-4 py-12 text-center', className)} data-testid={testId}>
      <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Icon aria-hidden className="size-5" />
      </span>
      <p className="text-sm font-medium">{title}</p>
      {text && <p className="mt-1 max-w-sm text-sm text-muted-foreground">{text}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

export function ErrorBlock({
  title,
  detail,
  onRetry,
  'data-testid': testId,
}: {
  title: string;
  detail?: string | null;
  onRetry?: () => void;
  'data-testid'?: string;
}) {
  const t = useT();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-destructive/25 bg-destructive-soft px-4 py-8 text-center text-sm text-destructive-text"
      data-testid={testId}
    >
      <CircleExclamationPoint aria-hidden className="size-5" />
      <p className="font-medium">{title}</p>
      {detail && detail !== title && <p className="max-w-md text-[13px] opacity-90">{detail}</p>}
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry} data-testid="try-again">
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
