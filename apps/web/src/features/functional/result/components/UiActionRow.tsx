import type { UiActionResult, UiScreenshotRef } from '@aqa/plan';
import { formatMs } from '@/features/results';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { PassMark } from './PassMark';
import { ScreenshotThumb } from './ScreenshotThumb';

function ActionWords({ action }: { action: UiActionResult }) {
  const { t } = useI18n();
  return (
    <p className="flex flex-wrap items-baseline gap-x-2">
      <code
        className={cn(
          'break-all font-mono text-[12px]',
          action.at === undefined ? 'font-semibold' : 'text-muted-foreground',
        )}
        data-testid="ui-action-written"
      >
        {action.action}
      </code>
      {action.line !== undefined && (
        <span className="num text-xs text-muted-foreground">
          {t('functional.uiResult.actionLine', { line: action.line })}
        </span>
      )}
      {action.locator !== null && (
        <code
          className="break-all rounded bg-muted px-1 font-mono text-[11px] text-muted-foreground"
          title={t('functional.uiResult.locatorUsed')}
          data-testid="ui-action-locator"
        >
          {action.locator}
        </code>
      )}
    </p>
  );
}

/** A failed assertion's expected and actual values apart, as a rule of an API call shows them. */
function ExpectedActual({ action }: { action: UiActionResult }) {
  const { t } = useI18n();
  return (
    <dl className="grid gap-x-4 gap-y-1 pt-0.5 text-[13px] sm:grid-cols-2" data-testid="ui-action-values">
      <div className="min-w-0">
        <dt className="inline text-muted-foreground">{t('functional.result.expected')}: </dt>
        <dd
          className="inline whitespace-pre-wrap break-all font-mono text-[12px]"
          data-testid="ui-action-expected"
        >
          {action.expected}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="inline text-muted-foreground">{t('functional.result.actual')}: </dt>
        <dd
          className={cn(
            'inline whitespace-pre-wrap break-all text-[12px]',
            action.actual == null ? 'text-muted-foreground' : 'font-mono',
          )}
          data-testid="ui-action-actual"
        >
          {action.actual ?? t('functional.uiResult.nothingFound')}
        </dd>
      </div>
    </dl>
  );
}

/**
 * One action of a UI step as run (docs/recorded-ui-tests.md "Results"): a recorded one by its recorder's
 * own name for it (`at`: "Selenium IDE test 'Sign in', command 7") above the command as written, a
 * script's by the action and its line; its pass mark, locator, message and time; a failed assertion's
 * "Expected" and "Actual" apart, and the failure screenshot taken as it failed, when it is known to be
 * this action's (model/ui-steps.ts placeShots).
 */
export function UiActionRow({
  action,
  shot,
  testId,
  stepName,
}: {
  action: UiActionResult;
  shot: UiScreenshotRef | null;
  testId: string;
  stepName: string;
}) {
  const { locale } = useI18n();
  return (
    <li
      className="flex min-w-0 gap-2 px-3 py-2 text-[13px]"
      data-testid="ui-action"
      data-passed={String(action.passed)}
    >
      <PassMark passed={action.passed} />
      <div className="min-w-0 flex-1 space-y-0.5">
        {action.at !== undefined && (
          <p className="break-words text-[13px] font-semibold" data-testid="ui-action-at">
            {action.at}
          </p>
        )}
        <ActionWords action={action} />
        <p
          className={cn('break-words', !action.passed && 'text-destructive-text')}
          data-testid="ui-action-message"
        >
          {action.message}
        </p>
        {!action.passed && action.expected !== undefined && <ExpectedActual action={action} />}
        {shot !== null && (
          <div className="pt-1.5">
            <ScreenshotThumb testId={testId} stepName={stepName} shot={shot} />
          </div>
        )}
      </div>
      <span className="num shrink-0 text-xs text-muted-foreground">
        {formatMs(action.duration_ms, locale)}
      </span>
    </li>
  );
}
