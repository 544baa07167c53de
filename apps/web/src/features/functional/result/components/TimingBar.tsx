import type { TimingPhases } from '@aqa/plan';
import { formatMs } from '@/features/results';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';

const PHASES: { key: keyof TimingPhases; label: MessageKey; color: string }[] = [
  { key: 'dns', label: 'functional.result.timing.dns', color: 'bg-info' },
  { key: 'connect', label: 'functional.result.timing.connect', color: 'bg-warning' },
  { key: 'tls', label: 'functional.result.timing.tls', color: 'bg-primary/60' },
  { key: 'ttfb', label: 'functional.result.timing.ttfb', color: 'bg-primary' },
  { key: 'download', label: 'functional.result.timing.download', color: 'bg-success' },
];

/**
 * Where one call's time went, measured by the runner (docs/design.md §9): a bar of its phases in
 * proportion and the figures beside it; a phase a reused connection skipped reads 0 ms.
 */
export function TimingBar({ timings }: { timings: TimingPhases }) {
  const { t, locale } = useI18n();
  const total = PHASES.reduce((sum, phase) => sum + timings[phase.key], 0);
  return (
    <div className="space-y-2" data-testid="call-timings">
      <p className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {t('functional.result.timing.title')}
      </p>
      {total > 0 && (
        <div aria-hidden className="flex h-2 w-full overflow-hidden rounded-full bg-muted">
          {PHASES.map((phase) =>
            timings[phase.key] > 0 ? (
              <span
                key={phase.key}
                className={cn('h-full', phase.color)}
                style={{ width: `${(timings[phase.key] / total) * 100}%` }}
              />
            ) : null,
          )}
        </div>
      )}
      <dl className="num grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-5">
        {PHASES.map((phase) => (
          <div key={phase.key} className="flex min-w-0 items-center gap-1.5">
            <span aria-hidden className={cn('size-2 shrink-0 rounded-full', phase.color)} />
            <dt className="truncate text-muted-foreground">{t(phase.label)}</dt>
            <dd className="ml-auto font-medium sm:ml-1" data-testid={`timing-${phase.key}`}>
              {formatMs(timings[phase.key], locale)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
