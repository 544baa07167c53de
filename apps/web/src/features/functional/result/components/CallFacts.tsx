import { MethodBadge } from '@/features/results';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { isSuccessStatus } from '../model/call-pages';

/** A call's method badge and its URL, as a judged call and an API result show them. */
export function MethodUrl({ method, url }: { method: string; url: string }) {
  return (
    <p className="flex min-w-0 items-center gap-2">
      <MethodBadge method={method} />
      <span className="min-w-0 break-all font-mono text-[12px] text-muted-foreground">{url}</span>
    </p>
  );
}

/** "Status Code {code}" (docs/reference/02-running.md §2): green from 200 to 299, red otherwise. */
export function StatusCodeFact({
  code,
  'data-testid': testId,
}: {
  code: number | null | undefined;
  'data-testid'?: string;
}) {
  const t = useT();
  const ok = isSuccessStatus(code);
  return (
    <span>
      <span className="text-muted-foreground">{t('functional.result.statusCode')} </span>
      <span
        className={cn('font-semibold', ok ? 'text-success-text' : 'text-destructive-text')}
        data-ok={ok ? 'true' : 'false'}
        data-testid={testId}
      >
        {code ?? t('functional.result.noStatus')}
      </span>
    </span>
  );
}
