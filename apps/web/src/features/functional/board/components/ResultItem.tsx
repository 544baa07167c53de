import { functionalStatusKind, type FunctionalResult } from '@aqa/plan';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { useConfirmDelete } from '@/components/confirm-dialog';
import { DeleteButton } from '@/components/delete-button';
import { useNotice } from '@/components/notices';
import { StatusBadge } from '@/components/status-badge';
import { formatDateTime } from '@/features/history';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { deleteFunctionalResult } from '../../queries/result-api';
import { passedCount } from '../../result/model/call-pages';
import { FunctionalSummaryCounts, ViewFunctionalResultButton } from './RunSummary';

/** docs/reference/02-running.md §2: the list shows 3 validation results of a run, failing ones first. */
const LISTED_VALIDATIONS = 3;

/**
 * One run of the functional dashboard's results list (docs/reference/02-running.md §2): name (or
 * 'Unnamed Test'), status, date, summary, 3 validation results (failures first) and '+N more validations',
 * View Result and Delete.
 */
export function ResultItem({ result, onDeleted }: { result: FunctionalResult; onDeleted: () => void }) {
  const { t, locale } = useI18n();
  const { readOnly } = useWorkspace();
  const confirmDelete = useConfirmDelete();
  const notice = useNotice();
  const [deleting, setDeleting] = useState(false);
  const kind = functionalStatusKind(result.status);
  // The server sends failing calls first; runs stored before it did are put in that order here, so a
  // failure among the calls received is never below a pass.
  const shown = [
    ...result.validation_results.filter((call) => !call.success),
    ...result.validation_results.filter((call) => call.success),
  ].slice(0, LISTED_VALIDATIONS);
  const total = result.validation_results_total ?? result.validation_results.length;
  const more = Math.max(0, total - shown.length);
  const when = formatDateTime(result.start_time, locale);

  async function remove() {
    if (!(await confirmDelete())) return;
    setDeleting(true);
    try {
      await deleteFunctionalResult(result.test_id);
      onDeleted();
    } catch {
      notice.error(t('functional.board.deleteResultFailed'));
      setDeleting(false);
    }
  }

  return (
    <article
      className="min-w-0 space-y-3 px-4 py-4 sm:px-5"
      data-testid="functional-result-item"
      data-test-id={result.test_id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-0.5">
          <h3 className="break-words text-sm font-semibold" data-testid="result-item-name">
            {result.test_name.trim() || t('dashboard.unnamedTest')}
          </h3>
          <p className="num text-xs text-muted-foreground">
            {when && <time dateTime={result.start_time ?? undefined}>{when}</time>}
            <span className="ml-2 font-mono text-[11px]">{result.test_id}</span>
          </p>
        </div>
        <StatusBadge status={kind === 'unknown' ? '' : kind} />
      </div>
      <p className="num flex flex-wrap gap-x-3 gap-y-0.5 text-xs" data-testid="result-item-summary">
        <FunctionalSummaryCounts summary={result.summary} withFailed />
      </p>
      {shown.length > 0 && (
        <ul className="space-y-1" data-testid="result-item-validations">
          {shown.map((call, index) => {
            const rules = passedCount(call);
            return (
              <li key={index} className="flex min-w-0 items-center gap-2 text-[13px]">
                {call.success ? (
                  <Check
                    aria-label={t('functional.result.passed')}
                    className="size-3.5 shrink-0 text-success"
                  />
                ) : (
                  <X
                    aria-label={t('functional.result.failed')}
                    className="size-3.5 shrink-0 text-destructive"
                  />
                )}
                <span className="min-w-0 truncate">
                  {call.api_name.trim() || t('functional.result.apiFallback', { n: String(index + 1) })}
                </span>
                <span className="num shrink-0 text-xs text-muted-foreground">
                  {t('functional.result.passedOf', {
                    passed: String(rules.passed),
                    total: String(rules.total),
                  })}
                </span>
              </li>
            );
          })}
          {more > 0 && (
            <li className="text-xs text-muted-foreground" data-testid="result-item-more">
              {t('functional.board.moreValidations', { count: formatCount(more, locale) })}
            </li>
          )}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <ViewFunctionalResultButton run={result} data-testid="view-result" />
        {!readOnly && (
          <DeleteButton
            busy={deleting}
            disabled={deleting}
            onClick={() => void remove()}
            data-testid="delete-result"
          >
            {t('history.plan.delete')}
          </DeleteButton>
        )}
      </div>
    </article>
  );
}
