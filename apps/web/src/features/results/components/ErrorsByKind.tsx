import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { formatCount } from '../model/format';
import type { ErrorTally } from '@aqa/plan';

const KINDS = ['connect', 'dns', 'timeout', 'tls', 'http_status', 'assertion', 'cancelled', 'other'] as const;

export interface ErrorKindRow {
  kind: string;
  count: number;
  samples: string[];
}

/** The run's failures by kind, most frequent first; kinds without failures are left out. */
export function errorKindRows(
  errors: Record<string, ErrorTally | number> | null | undefined,
): ErrorKindRow[] {
  if (!errors || typeof errors !== 'object') return [];
  return Object.entries(errors)
    .map(([kind, value]) => {
      if (typeof value === 'number') return { kind, count: value, samples: [] };
      const samples = Array.isArray(value?.samples) ? value.samples.filter((s) => typeof s === 'string') : [];
      return { kind, count: typeof value?.count === 'number' ? value.count : 0, samples };
    })
    .filter((row) => row.count > 0)
    .sort((a, b) => b.count - a.count);
}

/** Why requests failed, by kind, with the server's example messages. Nothing when none failed. */
export function ErrorsByKind({ errors }: { errors: Record<string, ErrorTally | number> | null | undefined }) {
  const { t, locale } = useI18n();
  const rows = errorKindRows(errors);
  if (rows.length === 0) return null;
  const label = (kind: string) =>
    (KINDS as readonly string[]).includes(kind) ? t(`results.errors.kind.${kind}` as MessageKey) : kind;
  return (
    <Card data-testid="errors-by-kind">
      <CardHeader className="pb-3">
        <CardTitle as="h3">{t('results.errors.title')}</CardTitle>
        <CardDescription>{t('results.errors.text')}</CardDescription>
      </CardHeader>
      <ul className="divide-y divide-border border-t border-border">
        {rows.map((row) => (
          <li key={row.kind} className="px-6 py-3 text-sm">
            <div className="flex items-baseline justify-between gap-4">
              <span className="font-medium">{label(row.kind)}</span>
              <span className="num font-semibold text-destructive-text">
                {formatCount(row.count, locale)}
              </span>
            </div>
            {row.samples.length > 0 && (
              <ul className="mt-1.5 space-y-1">
                {row.samples.map((sample) => (
                  <li key={sample} className="break-words font-mono text-xs text-muted-foreground">
                    {sample}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
