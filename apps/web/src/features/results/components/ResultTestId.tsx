import { useT } from '@/i18n';

/** "Test ID" and the run's id under a result screen's title (the performance and the functional one). */
export function ResultTestId({ testId }: { testId: string }) {
  const t = useT();
  return (
    <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
      <span>{t('results.testId')}</span>
      <code
        className="min-w-0 break-all rounded bg-muted px-1.5 py-0.5 font-mono text-[13px] text-foreground"
        data-testid="result-test-id"
      >
        {testId}
      </code>
    </p>
  );
}
