import type { ReactNode } from 'react';
import { idleAgents, useAgents } from '@/features/agents';
import { useI18n } from '@/i18n';
import { viewOf } from '@/lib/queries';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * Where a run goes (docs/scale-out.md): this server, or split over N of the user's online idle agents.
 * Shown only when the user has such an agent; a server without Redis (503) or an error shows nothing,
 * and the run goes to this server as before.
 */
export function RunPlacement({
  value,
  onChange,
  children,
}: {
  value: number;
  onChange: (agents: number) => void;
  /** The Run button: with the choice shown, both are one group, so the choice never wraps away from it. */
  children: ReactNode;
}) {
  const { t } = useI18n();
  const agents = viewOf(useAgents());
  const idle = agents.status === 'success' ? idleAgents(agents.data).length : 0;
  if (idle === 0) return children;
  const choice = Math.min(value, idle);
  return (
    <div className="col-span-2 flex flex-wrap items-center gap-2 sm:col-span-1">
      <label className="flex items-center gap-2 text-sm" title={t('agents.placementHint', { online: idle })}>
        <span className="font-medium">{t('agents.placementLabel')}</span>
        <NativeSelect
          value={String(choice)}
          onChange={(e) => onChange(Number(e.target.value))}
          className="h-9 w-auto"
          data-testid="run-placement"
        >
          <option value="0">{t('agents.placementServer')}</option>
          {Array.from({ length: idle }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n === 1 ? t('agents.placementOneAgent') : t('agents.placementAgents', { n })}
            </option>
          ))}
        </NativeSelect>
      </label>
      {children}
    </div>
  );
}
