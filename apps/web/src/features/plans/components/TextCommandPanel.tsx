import { Terminal } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { appliedMessage, describeChange } from '../model/text-command-text';
import type { ParsedUpdate, TextCommandResponse } from '../queries/text-command';
import { callErrorMessage } from '@/features/call-editor';

type Outcome =
  { kind: 'success'; message: string; updates: ParsedUpdate[] } | { kind: 'error'; message: string };

/**
 * The text-command panel of a saved plan (docs/reference/01-authoring.md §2): a command in plain words, the answer in green on
 * success or red on error, and the list of changes applied.
 */
export function TextCommandPanel({
  apply,
  disabled,
}: {
  apply: (command: string) => Promise<TextCommandResponse>;
  disabled: boolean;
}) {
  const t = useT();
  const [command, setCommand] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !command.trim()) return;
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await apply(command.trim());
      const updates = answer.parsed_updates ?? [];
      // The changes worded in the screen's language (the server's message is English).
      const message = updates.length > 0 ? appliedMessage(updates, t) : answer.message;
      setOutcome({ kind: 'success', message, updates });
      setCommand('');
    } catch (error) {
      setOutcome({ kind: 'error', message: callErrorMessage(error, t) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card data-testid="text-command-panel">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <Terminal aria-hidden className="size-4 text-muted-foreground" />
          {t('plans.commandTitle')}
        </CardTitle>
        <CardDescription>{t('plans.commandText')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <form className="flex flex-col gap-2 sm:flex-row" onSubmit={(event) => void submit(event)}>
          <Input
            aria-label={t('plans.commandLabel')}
            placeholder={t('plans.commandPlaceholder')}
            value={command}
            disabled={disabled}
            onChange={(event) => setCommand(event.target.value)}
            data-testid="text-command-input"
          />
          <Button
            type="submit"
            disabled={disabled || busy || !command.trim()}
            data-testid="text-command-apply"
          >
            {busy && <Spinner />}
            {busy ? t('plans.commandApplying') : t('plans.commandApply')}
          </Button>
        </form>
        <p className="text-[13px] leading-5 text-muted-foreground">{t('plans.commandExamples')}</p>
        {outcome && (
          <div role={outcome.kind === 'error' ? 'alert' : 'status'} className="space-y-2">
            <p
              className={cn(
                'text-sm font-medium',
                outcome.kind === 'error' ? 'text-destructive-text' : 'text-success-text',
              )}
              data-testid="text-command-message"
              data-kind={outcome.kind}
            >
              {outcome.message}
            </p>
            {outcome.kind === 'success' && outcome.updates.length > 0 && (
              <div className="space-y-1">
                <h3 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                  {t('plans.commandChanges')}
                </h3>
                <ul className="space-y-1 text-[13px]" data-testid="text-command-changes">
                  {outcome.updates.map((update, index) => (
                    <li key={`${update.field}-${index}`}>{describeChange(update, t)}</li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
