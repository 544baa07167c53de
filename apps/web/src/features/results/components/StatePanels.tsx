import {
  ArrowLeft,
  ChevronRight,
  CircleX,
  Clock,
  ClockArrowLeft,
  FileX,
  House,
  Inbox,
  LoaderCircle,
  RefreshCw,
  RotateCcw,
  SearchX,
} from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { RunElsewhereButtons, type RunChoice } from '@/components/run-elsewhere';
import { ScreenButton } from '@/components/screen-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { formatCount } from '../model/format';

export interface WaitingPanelProps {
  kind: 'preparing' | 'processing';
  elapsedSeconds: number;
  totalSeconds: number;
  progress: number;
  /** The server does not know the test (yet). */
  notFound?: boolean;
}

/** "Test Result Preparing..." / "Processing Test Results..." with elapsed, total and progress (docs/reference/02-running.md §2). */
export function WaitingPanel({ kind, elapsedSeconds, totalSeconds, progress, notFound }: WaitingPanelProps) {
  const { t, locale } = useI18n();
  const figures = [
    { label: t('results.waiting.elapsed'), value: `${formatCount(elapsedSeconds, locale)} s` },
    { label: t('results.waiting.total'), value: `${formatCount(totalSeconds, locale)} s` },
    { label: t('results.waiting.progress'), value: `${Math.round(progress)}%` },
  ];
  return (
    <Card
      className="flex flex-col items-center px-6 py-10 text-center"
      data-testid="waiting-panel"
      data-kind={kind}
    >
      <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-info-soft text-info-text">
        <LoaderCircle aria-hidden className="size-6 animate-spin" />
      </span>
      <h2 className="text-lg font-semibold tracking-tight">
        {t(kind === 'preparing' ? 'results.waiting.preparing' : 'results.waiting.processing')}
      </h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">
        {t(kind === 'preparing' ? 'results.waiting.preparingText' : 'results.waiting.processingText')}
      </p>
      <dl className="mt-6 grid w-full max-w-sm grid-cols-3 gap-3">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-lg bg-muted/60 px-2 py-2">
            <dt className="text-[11px] text-muted-foreground">{figure.label}</dt>
            <dd className="num text-base font-semibold">{figure.value}</dd>
          </div>
        ))}
      </dl>
      {notFound && (
        <p className="mt-4 text-[13px] text-muted-foreground" data-testid="waiting-not-found">
          {t('results.waiting.notFound')}
        </p>
      )}
    </Card>
  );
}

interface PanelProps {
  icon: typeof Inbox;
  /** The icon turns (a loader), for a state that waits on the server. */
  spin?: boolean;
  tone: 'neutral' | 'info' | 'warning' | 'danger';
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  'data-testid'?: string;
}

const TONES = {
  neutral: 'bg-muted text-muted-foreground',
  info: 'bg-info-soft text-info-text',
  warning: 'bg-warning-soft text-warning-text',
  danger: 'bg-destructive-soft text-destructive-text',
};

function Panel({
  icon: Icon,
  spin = false,
  tone,
  title,
  children,
  actions,
  'data-testid': testId,
}: PanelProps) {
  return (
    <Card className="flex flex-col items-center px-6 py-10 text-center" data-testid={testId}>
      <span className={cn('mb-4 flex size-12 items-center justify-center rounded-full', TONES[tone])}>
        <Icon aria-hidden className={cn('size-6', spin && 'animate-spin')} />
      </span>
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
      {children && <div className="mt-2 max-w-xl text-sm text-muted-foreground">{children}</div>}
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-2">{actions}</div>}
    </Card>
  );
}

/** A new run the server has not confirmed yet (docs/reference/02-running.md §2). */
export function StartingPanel() {
  const { t } = useI18n();
  return (
    <Panel icon={LoaderCircle} spin tone="info" title={t('results.starting')} data-testid="starting-panel">
      {t('results.startingText')}
    </Panel>
  );
}

/** An existing run before the server's first answer: neither running nor finished yet on screen. */
export function LoadingPanel() {
  const { t } = useI18n();
  return (
    <Panel icon={LoaderCircle} spin tone="neutral" title={t('results.loading')} data-testid="loading-panel" />
  );
}

function GoBackButton({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  return (
    <Button variant="outline" onClick={onBack} data-testid="panel-go-back">
      <ArrowLeft />
      {t('results.goBack')}
    </Button>
  );
}

/** Completed with a summary that counted no request (docs/reference/02-running.md §2). */
export function NoKpiPanel({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  return (
    <Panel
      icon={FileX}
      tone="warning"
      title={t('results.noKpi.title')}
      actions={<GoBackButton onBack={onBack} />}
      data-testid="no-kpi-panel"
    >
      {t('results.noKpi.text')}
    </Panel>
  );
}

/** Completed without a summary (docs/reference/02-running.md §2); also a stopped run that recorded nothing. */
export function NoResultsPanel({ onBack, text }: { onBack: () => void; text?: string }) {
  const { t } = useI18n();
  return (
    <Panel
      icon={Inbox}
      tone="neutral"
      title={t('results.noResults.title')}
      actions={<GoBackButton onBack={onBack} />}
      data-testid="no-results-panel"
    >
      {text ?? t('results.noResults.text')}
    </Panel>
  );
}

/** "Test Timeout" with the spec's explanatory list, Go Back and Refresh Page (docs/reference/02-running.md §2, §8). */
export function TimeoutPanel({
  seconds,
  notFound = false,
  onBack,
  onRefresh,
}: {
  seconds: number;
  /** The server never knew the test: the link may be wrong. */
  notFound?: boolean;
  onBack: () => void;
  onRefresh: () => void;
}) {
  const { t } = useI18n();
  return (
    <Panel
      icon={Clock}
      tone="warning"
      title={t('results.timeout.title')}
      data-testid="timeout-panel"
      actions={
        <>
          <GoBackButton onBack={onBack} />
          <Button onClick={onRefresh} data-testid="panel-refresh">
            <RefreshCw />
            {t('results.refreshPage')}
          </Button>
        </>
      }
    >
      <p className="text-foreground" data-testid="timeout-message">
        {t('results.timeout.message', { seconds })}
      </p>
      <div className="mt-4 rounded-lg bg-muted/60 px-4 py-3 text-left">
        <p className="font-medium text-foreground">{t('results.timeout.listTitle')}</p>
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          <li>{t('results.timeout.reasonCompleted')}</li>
          <li>{t('results.timeout.reasonProcessing')}</li>
          <li>{t('results.timeout.reasonLarge')}</li>
          <li>{t('results.timeout.reasonRefresh')}</li>
        </ul>
      </div>
      {notFound && (
        <p className="mt-3" data-testid="timeout-not-found">
          {t('results.timeout.notFound')}
        </p>
      )}
    </Panel>
  );
}

/**
 * The tool's own output behind a "Details" toggle: closed at first, monospace and scrollable when
 * open, in the page's normal colours, so a failed run never shows a wall of red text.
 */
export function ErrorDetails({ details }: { details: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="mt-4 w-full text-left" data-testid="error-details">
      <Button
        variant="ghost"
        size="sm"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((was) => !was)}
        data-testid="error-details-toggle"
      >
        <ChevronRight aria-hidden className={cn('transition-transform', open && 'rotate-90')} />
        {t('results.error.details')}
      </Button>
      {open && (
        <pre
          id={id}
          tabIndex={0}
          aria-label={t('results.error.detailsLabel')}
          className="mt-2 max-h-80 overflow-auto whitespace-pre rounded-lg border border-border bg-muted/60 p-3 font-mono text-xs leading-5 text-foreground"
          data-testid="error-details-text"
        >
          {details}
        </pre>
      )}
    </div>
  );
}

/** "Test Error" with the message, Go Back and Retry (docs/reference/02-running.md §2); a tool's output behind "Details". */
export function ErrorPanel({
  message,
  details,
  onBack,
  onRetry,
  elsewhere,
}: {
  message: string;
  /** What the tool that ran the plan printed, when it failed (null: nothing to show). */
  details?: string | null | undefined;
  onBack: () => void;
  onRetry: () => void;
  /** A failed tool run: the same plan in the built-in engine or Locust, one click each. */
  elsewhere?:
    { toolName: string; choices: RunChoice[]; onChoose: (choice: RunChoice) => Promise<void> } | undefined;
}) {
  const { t } = useI18n();
  return (
    <Panel
      icon={CircleX}
      tone="danger"
      title={t('results.error.title')}
      data-testid="error-panel"
      actions={
        <>
          <GoBackButton onBack={onBack} />
          <Button onClick={onRetry} data-testid="panel-retry">
            <RotateCcw />
            {t('results.retry')}
          </Button>
        </>
      }
    >
      <p role="alert" className="text-destructive-text" data-testid="error-message">
        {message}
      </p>
      {details?.trim() && <ErrorDetails details={details} />}
      {elsewhere && elsewhere.choices.length > 0 && (
        <div className="mt-4 space-y-2 border-t border-border pt-4" data-testid="run-elsewhere">
          <p className="font-medium">{t('runElsewhere.failedTitle')}</p>
          <p className="text-sm text-muted-foreground">
            {t('runElsewhere.failedText', { tool: elsewhere.toolName })}
          </p>
          <RunElsewhereButtons choices={elsewhere.choices} onChoose={elsewhere.onChoose} centered />
        </div>
      )}
    </Panel>
  );
}

/**
 * "Test not found": the server never issued this id (or no longer has the run), and this browser is not
 * starting it. No Stop and no progress — the ways back to the user's runs and to the dashboard.
 */
export function NotFoundPanel({ testId }: { testId: string }) {
  const { t } = useI18n();
  return (
    <Panel
      icon={SearchX}
      tone="neutral"
      title={t('results.notFound.title')}
      data-testid="not-found-panel"
      actions={
        <>
          <ScreenButton screen="previousResults" variant="outline" data-testid="not-found-previous-results">
            <ClockArrowLeft />
            {t('results.notFound.previousResults')}
          </ScreenButton>
          <ScreenButton screen="dashboard" data-testid="not-found-dashboard">
            <House />
            {t('results.notFound.dashboard')}
          </ScreenButton>
        </>
      }
    >
      <p className="break-words" data-testid="not-found-message">
        {t('results.notFound.text', { id: testId })}
      </p>
    </Panel>
  );
}
