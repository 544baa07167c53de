import { CircleCheck, LoaderCircle, PlugZap } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { useT } from '@/i18n';
import type { BackendState } from '../model/board-errors';

const LOOK = {
  checking: { variant: 'secondary', label: 'functional.board.checking', icon: LoaderCircle },
  connected: { variant: 'success', label: 'functional.board.connected', icon: CircleCheck },
  disconnected: { variant: 'destructive', label: 'functional.board.disconnected', icon: PlugZap },
} as const;

/** The Backend Status badge of docs/reference/02-running.md §2: Connected, Disconnected or Checking.... */
export function BackendStatus({ state }: { state: BackendState }) {
  const t = useT();
  const look = LOOK[state];
  const Icon = look.icon;
  return (
    <span className="flex items-center gap-2 text-sm" data-testid="backend-status" data-state={state}>
      <span className="text-muted-foreground">{t('functional.board.backendStatus')}</span>
      <Badge variant={look.variant} role="status">
        <Icon aria-hidden className={state === 'checking' ? 'animate-spin' : undefined} />
        {t(look.label)}
      </Badge>
    </span>
  );
}
