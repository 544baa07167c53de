import type { Finding, FindingSeverity } from '@aqa/plan';
import { RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import type { ReviewState } from '../hooks/useReview';
import { FigureList, LinkList } from './FiguresAndLinks';
import { callErrorMessage } from '@/features/call-editor';

const SEVERITY_BADGE: Record<FindingSeverity, 'destructive' | 'warning' | 'info'> = {
  problem: 'destructive',
  warning: 'warning',
  info: 'info',
};

/** "Review saved plans" (docs/design.md §10): the findings from the user's own plans and runs, problems first. */
export function ReviewView({
  state,
  load,
  onNavigate,
}: {
  state: ReviewState;
  load: () => void;
  onNavigate: () => void;
}) {
  const t = useT();
  // Loaded when the view is first shown.
  useEffect(() => {
    if (state.status === 'idle') load();
  }, [state.status, load]);

  if (state.status === 'idle' || state.status === 'loading') {
    return (
      <p
        role="status"
        className="flex items-center gap-2 text-sm text-muted-foreground"
        data-testid="james-review-loading"
      >
        <Spinner />
        {t('assistant.review.loading')}
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <div className="space-y-2">
        <Alert variant="destructive">
          {t('assistant.review.failed', { message: callErrorMessage(state.error, t) })}
        </Alert>
        <Button type="button" size="sm" variant="outline" onClick={load}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  const { findings } = state.review;
  return (
    <div className="space-y-3" data-testid="james-review">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" role="status">
          {findings.length === 0
            ? t('assistant.review.empty')
            : findings.length === 1
              ? t('assistant.review.countOne')
              : t('assistant.review.count', { count: findings.length })}
        </p>
        <Button type="button" size="sm" variant="ghost" onClick={load}>
          <RefreshCw />
          {t('assistant.review.again')}
        </Button>
      </div>
      <ul className="space-y-2">
        {findings.map((finding, index) => (
          <FindingItem key={`${finding.kind}-${index}`} finding={finding} onNavigate={onNavigate} />
        ))}
      </ul>
    </div>
  );
}

function FindingItem({ finding, onNavigate }: { finding: Finding; onNavigate: () => void }) {
  const t = useT();
  return (
    <li
      className="space-y-2 rounded-lg border border-border bg-card p-3"
      data-testid="james-finding"
      data-kind={finding.kind}
      data-severity={finding.severity}
    >
      <div className="flex items-start gap-2">
        <Badge variant={SEVERITY_BADGE[finding.severity]} className="mt-0.5 shrink-0">
          {t(`assistant.severity.${finding.severity}`)}
        </Badge>
        <h3 className="text-sm font-semibold leading-5">{finding.title}</h3>
      </div>
      <p className="text-[13px] leading-5 text-muted-foreground">{finding.detail}</p>
      <FigureList figures={finding.figures} />
      <LinkList links={finding.links} onNavigate={onNavigate} />
    </li>
  );
}
