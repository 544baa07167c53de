import type { LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { useT } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';

export interface CounterTile<K extends string> {
  key: K;
  label: MessageKey;
  icon: LucideIcon;
  /** The icon's colours (background and text classes). */
  tone: string;
}

/**
 * A row of counter tiles (an icon, a label and a number) as the dashboards show them; each number is
 * `counter-{key}` for tests. `value` gives a counter's text, already formatted by the caller.
 */
export function CounterTiles<K extends string>({
  tiles,
  value,
  'data-testid': testId,
}: {
  tiles: readonly CounterTile<K>[];
  value: (key: K) => string;
  'data-testid': string;
}) {
  const t = useT();
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid={testId}>
      {tiles.map(({ key, label, icon: Icon, tone }) => (
        <li key={key}>
          <Card className="flex items-center gap-3 p-4">
            <span className={cn('flex size-9 shrink-0 items-center justify-center rounded-lg', tone)}>
              <Icon aria-hidden className="size-4" />
            </span>
            <div className="min-w-0">
              <p className="text-xs font-medium leading-4 text-muted-foreground">{t(label)}</p>
              <p className="num text-xl font-semibold tracking-tight" data-testid={`counter-${key}`}>
                {value(key)}
              </p>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
