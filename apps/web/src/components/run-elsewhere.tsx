import { Cpu, Play } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';

/**
 * Where a plan can run when its tool cannot (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"):
 * the built-in engine (`engine: "builtin"` on the run-test request) or Locust (`tool: "locust"`, for this
 * run only). Both run every plan the plan model accepts.
 */
export type RunChoice = 'builtin' | 'locust';

/** The choices that make sense after `engine` (what ran, or would run) could not: never the same one again. */
export function runChoicesAfter(engine: string | null | undefined): RunChoice[] {
  const all: RunChoice[] = ['builtin', 'locust'];
  return all.filter((choice) => choice !== engine);
}

/** The one-click buttons: each starts the run in that engine and reports a refusal under them. */
export function RunElsewhereButtons({
  choices,
  onChoose,
  disabled = false,
  centered = false,
}: {
  choices: RunChoice[];
  /** In a centred panel: the buttons centred too. */
  centered?: boolean;
  /** Starts the run; a rejection is shown under the buttons. */
  onChoose: (choice: RunChoice) => Promise<void>;
  disabled?: boolean;
}) {
  const t = useT();
  const [busy, setBusy] = useState<RunChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const choose = async (choice: RunChoice) => {
    if (busy) return;
    setBusy(choice);
    setError(null);
    try {
      await onChoose(choice);
    } catch (err) {
      setError(t('runElsewhere.failed', { message: err instanceof Error ? err.message : String(err) }));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="space-y-2">
      <div className={centered ? 'flex flex-wrap justify-center gap-2' : 'flex flex-wrap gap-2'}>
        {choices.map((choice) => (
          <Button
            key={choice}
            variant={choice === 'builtin' ? 'default' : 'outline'}
            disabled={disabled || busy !== null}
            onClick={() => void choose(choice)}
            data-testid={`run-elsewhere-${choice}`}
          >
            {busy === choice ? <Spinner /> : choice === 'builtin' ? <Cpu /> : <Play />}
            {busy === choice
              ? t('runElsewhere.starting')
              : t(choice === 'builtin' ? 'runElsewhere.builtin' : 'runElsewhere.locust')}
          </Button>
        ))}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive-text" data-testid="run-elsewhere-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Says, before Run, that the plan's tool as installed on this server cannot run the plan, with each reason
 * by field, and offers the built-in engine or Locust in one click.
 */
export function ToolCannotRunAlert({
  toolName,
  reasons,
  choices,
  onChoose,
  disabled,
  footer,
}: {
  /** The tool with its version, as GET /api/engines names it ("Apache JMeter 2.13"). */
  toolName: string;
  reasons: string[];
  choices: RunChoice[];
  onChoose: (choice: RunChoice) => Promise<void>;
  disabled?: boolean;
  footer?: ReactNode;
}) {
  const t = useT();
  return (
    <Alert
      variant="warning"
      title={t('runElsewhere.title', { tool: toolName })}
      data-testid="tool-cannot-run"
    >
      <div className="space-y-3">
        <ul className="list-disc space-y-1 pl-5 break-words">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
        <p>{t('runElsewhere.text')}</p>
        <RunElsewhereButtons choices={choices} onChoose={onChoose} disabled={disabled ?? false} />
        {footer}
      </div>
    </Alert>
  );
}
