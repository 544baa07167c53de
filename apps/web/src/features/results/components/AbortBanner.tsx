import { abortSaid, breakingPointSaid, type TestResult } from '@aqa/plan';
import { Alert } from '@/components/ui/alert';
import { useT } from '@/i18n';
import { usePhrase } from '@/i18n/phrases';

/**
 * Why an abort threshold stopped the run, and the breaking point it found (docs/adr/0027-load-profiles.md,
 * "Abort criteria"): worded from the run's structured reason in the user's language, so a run stored in
 * English reads in Korean too. Nothing when no threshold stopped the run.
 */
export function AbortBanner({ result }: { result: Pick<TestResult, 'abort_reason' | 'breaking_point'> }) {
  const t = useT();
  const say = usePhrase();
  const reason = result.abort_reason;
  if (reason === null || reason === undefined) return null;
  const why = abortSaid(reason);
  const point = result.breaking_point;
  const held = point === null || point === undefined ? null : breakingPointSaid(point);
  return (
    <Alert variant="warning" title={t('results.abort.title')} data-testid="abort-banner">
      <p data-testid="abort-reason">{say(why.text, why.phrase)}</p>
      {held !== null && (
        <p data-testid="breaking-point">
          {t('results.abort.breakingPoint')} <strong>{say(held.text, held.phrase)}</strong>
        </p>
      )}
    </Alert>
  );
}
